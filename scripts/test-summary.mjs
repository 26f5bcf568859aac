// Adds up vitest's and Playwright's JSON reports into the one line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2] ?? ".test-results";
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];

const vitestPath = join(dir, "vitest.json");
if (existsSync(vitestPath)) {
  const report = JSON.parse(readFileSync(vitestPath, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  if (report.numFailedTestSuites > 0 && report.numFailedTests === 0) failed += report.numFailedTestSuites;
} else missing.push("vitest");

const playwrightPath = join(dir, "playwright.json");
if (existsSync(playwrightPath)) {
  const { stats } = JSON.parse(readFileSync(playwrightPath, "utf8"));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
} else missing.push("playwright");

if (missing.length) {
  console.log(`No report from ${missing.join(" and ")}: counted as a failure.`);
  failed += missing.length;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
