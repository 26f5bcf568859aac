import type { Row } from "./measure";

// The speed table of bench/README.md: every full `npm run bench` run rewrites the part between
// the two markers from the figures it measured, so the table is never older than the last run.

export const TABLE_START = "<!-- speed-table:start — written by a full `npm run bench`; edits in here are replaced -->";
export const TABLE_END = "<!-- speed-table:end -->";

export type MeasuredSection = { title: string; rows: Row[] };

/** A Markdown cell: one line, no column break. */
const cell = (text: string) => text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");

/** The table: a heading row per section, then each figure with its goal and PASS or FAIL. */
export function speedTable(sections: MeasuredSection[], machine: string, at: Date): string {
  const rows = sections.flatMap((s) => s.rows);
  const met = rows.filter((r) => r.met).length;
  return [
    `${met} of ${rows.length} goals met, measured ${at.toISOString().slice(0, 10)} on ${cell(machine)}.`,
    "",
    "| budget | goal | measured | |",
    "| --- | --- | --- | --- |",
    ...sections
      .filter((s) => s.rows.length)
      .flatMap((s) => [
        `| **${cell(s.title)}** | | | |`,
        ...s.rows.map(
          (r) => `| ${cell(r.name)} | ${cell(r.target)} | ${cell(r.value)} | ${r.met ? "PASS" : "**FAIL**"} |`,
        ),
      ]),
  ].join("\n");
}

/** The README with the table between its markers replaced; refuses a README without both markers. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`bench/README.md lacks the markers ${TABLE_START} … ${TABLE_END}`);
  return `${readme.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${readme.slice(end)}`;
}
