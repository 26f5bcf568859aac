import fc from "fast-check";
import { vi } from "vitest";

// `LB_PROPERTY_RUNS=100000 npm run test:unit` searches the property suites far deeper than
// the default 100 runs each, with no time limit per test; CI keeps the default.
const runs = Number(process.env.LB_PROPERTY_RUNS);
if (Number.isInteger(runs) && runs > 0) {
  fc.configureGlobal({ numRuns: runs });
  vi.setConfig({ testTimeout: 0 });
}
