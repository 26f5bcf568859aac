// npm run bench: speed budgets, each printed as a figure against its goal (a ratio against a
// baseline measured in the same run wherever there is one) with PASS or FAIL. A miss is reported,
// not hidden. `npm run bench -- load pages` runs only the named sections.
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { createDb } from "../lib/db/create";
import { runDiscoveryBench } from "./discovery";
import { runExperimentBench } from "./experiments";
import { runLiveBench } from "./live";
import { runLoadBench } from "./load";
import { runLongWindowBench } from "./long-window";
import type { Row } from "./measure";
import { runPagesBench } from "./pages";
import { runPlannerBench } from "./planner";
import { runScaleBench } from "./scale";
import { speedTable, withTable, type MeasuredSection } from "./table";
import { startBenchStack, type BenchStack } from "./stack";
import { runTimelineBench } from "./timeline";
import { runWhatIfBench } from "./whatif";
import type { Db } from "../lib/db/client";

type Section = { title: string; needsStack: boolean; run: (stack: BenchStack, db: Db) => Promise<Row[]> | Row[] };

const SECTIONS: Record<string, Section> = {
  live: { title: "The live views, one request at a time", needsStack: true, run: runLiveBench },
  load: { title: "Sustained load (autocannon) and memory", needsStack: true, run: runLoadBench },
  pages: { title: "Page speed (Chromium)", needsStack: true, run: (stack) => runPagesBench(stack) },
  scale: { title: "Scale curves", needsStack: true, run: runScaleBench },
  planner: { title: "Planner", needsStack: false, run: () => runPlannerBench() },
  whatif: { title: "What-if predictor", needsStack: false, run: () => runWhatIfBench() },
  experiments: {
    title: "Experiment analysis (each measurement in a fresh process)",
    needsStack: false,
    run: () => runExperimentBench(),
  },
  "long-window": {
    title: "28-day SLOs on a backfilled month (promtool; a few minutes)",
    needsStack: false,
    run: () => runLongWindowBench(),
  },
  timeline: {
    title: "The waterfall timeline over a backfilled day (promtool; a minute)",
    needsStack: false,
    run: () => runTimelineBench(),
  },
  discovery: {
    title: "Discovery against a Prometheus with 100,000 series",
    needsStack: false,
    run: () => runDiscoveryBench(),
  },
};

const asked = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const unknown = asked.filter((name) => !(name in SECTIONS));
if (unknown.length) {
  console.error(`No such section: ${unknown.join(", ")}. Sections: ${Object.keys(SECTIONS).join(", ")}`);
  process.exit(2);
}
const chosen = Object.entries(SECTIONS).filter(([name]) => !asked.length || asked.includes(name));

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`;
console.log(`Machine: ${machine}`);
const results: Row[] = [];
/** The figures by section, in the order of SECTIONS, for bench/README.md's table. */
const measured = new Map<string, Row[]>();
const print = (row: Row) => {
  results.push(row);
  console.log(`${row.met ? "PASS" : "FAIL"} ${row.name}: ${row.value} (goal ${row.target})`);
};

async function runSection(title: string, run: () => Promise<Row[]> | Row[]) {
  console.log(`\n${title}…`);
  const rows = measured.set(title, []).get(title)!;
  for (const row of await run()) {
    rows.push(row);
    print(row);
  }
}

// The processor-only figures first, in a fresh process, before anything else has run in it.
const CPU_ONLY = ["planner", "whatif", "experiments"];
for (const [, section] of chosen.filter(([name]) => CPU_ONLY.includes(name)))
  await runSection(section.title, () => section.run(undefined as never, undefined as never));

const withStack = chosen.filter(([, s]) => s.needsStack);
if (withStack.length) {
  const stack = await startBenchStack();
  try {
    console.log("Collecting 20 s of demo traffic…");
    await new Promise((r) => setTimeout(r, 20_000));
    const db = createDb(stack.databaseUrl, 1);
    console.log(`Database: ${stack.databaseKind}`);
    for (const [, section] of withStack) await runSection(section.title, () => section.run(stack, db));
    await db.$disconnect();
  } finally {
    await stack.stop();
  }
}
for (const [, section] of chosen.filter(([name, s]) => !s.needsStack && !CPU_ONLY.includes(name)))
  await runSection(section.title, () => section.run(undefined as never, undefined as never));

const missed = results.filter((r) => !r.met);
console.log(`\nAll figures (${results.length}):`);
for (const r of results) console.log(`| ${r.met ? "PASS" : "FAIL"} | ${r.name} | ${r.value} | ${r.target} |`);
console.log(
  `\n${results.length - missed.length} of ${results.length} goals met${missed.length ? `; missed: ${missed.map((m) => m.name).join("; ")}` : ""}`,
);
// Only a full run rewrites the README's table: a partial one would drop the other sections' rows.
if (!asked.length) {
  const file = new URL("./README.md", import.meta.url);
  const sections: MeasuredSection[] = Object.values(SECTIONS).map(({ title }) => ({
    title,
    rows: measured.get(title) ?? [],
  }));
  writeFileSync(file, withTable(readFileSync(file, "utf8"), speedTable(sections, machine, new Date())));
  console.log("Wrote the table to bench/README.md");
}
process.exit(0);
