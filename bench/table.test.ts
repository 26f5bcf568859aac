import { describe, expect, it } from "vitest";
import { speedTable, TABLE_END, TABLE_START, withTable } from "./table";

// npm run bench writes bench/README.md's table from what it measured: the rows as measured, the
// text around the markers untouched.

const sections = [
  {
    title: "Planner",
    rows: [{ name: "planner, 20 options", target: "≥ 5 × faster", value: "20.1 × (72 ms vs 1.45 s)", met: true }],
  },
  { title: "Empty", rows: [] },
  {
    title: "Load",
    rows: [{ name: "heap | floor", target: "≤ +10 MB", value: "+47 MB\n(114 → 161)", met: false }],
  },
];

describe("the speed table", () => {
  it("has one row per figure under its section, with PASS or FAIL, and the count of goals met", () => {
    expect(speedTable(sections, "2 × EPYC, 23.5 GiB, Node v20.19.0", new Date("2026-05-01T12:00:00Z"))).toBe(
      [
        "1 of 2 goals met, measured 2026-05-01 on 2 × EPYC, 23.5 GiB, Node v20.19.0.",
        "",
        "| budget | goal | measured | |",
        "| --- | --- | --- | --- |",
        "| **Planner** | | | |",
        "| planner, 20 options | ≥ 5 × faster | 20.1 × (72 ms vs 1.45 s) | PASS |",
        "| **Load** | | | |",
        "| heap \\| floor | ≤ +10 MB | +47 MB (114 → 161) | **FAIL** |",
      ].join("\n"),
    );
  });

  it("replaces only what lies between the markers", () => {
    const readme = `# Speed\n\nprose before\n\n${TABLE_START}\n\nold table\n\n${TABLE_END}\n\nprose after\n`;
    expect(withTable(readme, "new table")).toBe(
      `# Speed\n\nprose before\n\n${TABLE_START}\n\nnew table\n\n${TABLE_END}\n\nprose after\n`,
    );
    expect(withTable(withTable(readme, "a"), "b")).toBe(withTable(readme, "b"));
    expect(() => withTable("# no markers", "t")).toThrow(/lacks the markers/);
  });
});
