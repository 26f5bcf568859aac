// Experiment analysis of 10 million samples per variant: the sketch path against a baseline
// that keeps and sorts every sample, each in a fresh process, in the same run.
// Targets (issues: A/B latency experiments; speed under load): ≥ 10 × faster, ≤ 1/10 of the baseline's peak
// memory, worst relative error on p50/p95/p99 ≤ 1 %.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { newAccumulator } from "../lib/domain/experiments";
import { histogramQuantile, type Bucket } from "../lib/domain/histogram";
import { addBucketsAsSamples } from "../lib/domain/histogram-samples";
import { quantileWithCI } from "../lib/domain/stats/quantile-ci";
import { median, type Row } from "./measure";

type Run = { mode: string; n: number; ms: number; maxRssMb: number; results: number[][] };

export function runExperimentBench(samplesPerVariant = Number(process.env.BENCH_SAMPLES ?? 10_000_000)) {
  const run = (mode: string): Run =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [resolve("node_modules/tsx/dist/cli.mjs"), "bench/experiment-worker.ts", mode, String(samplesPerVariant)],
        {
          encoding: "utf8",
          maxBuffer: 1 << 20,
        },
      ).trim(),
    );
  const floor = run("generate");
  const baseline = run("sort");
  const sketch = run("sketch");

  // Drawing the samples is not timed in any mode (see the worker); memory above the floor
  // process (which draws the same samples and keeps nothing) is what each analysis holds.
  const analysisMs = (r: Run) => Math.max(0.1, r.ms);
  const analysisMb = (r: Run) => Math.max(1, r.maxRssMb - floor.maxRssMb);
  let worst = 0;
  baseline.results.forEach((exact, v) =>
    exact.forEach((e, i) => (worst = Math.max(worst, Math.abs(sketch.results[v]![i]! - e) / e))),
  );

  const speedup = analysisMs(baseline) / analysisMs(sketch);
  const memory = analysisMb(sketch) / analysisMb(baseline);
  const rows = [
    {
      name: `analysis of ${samplesPerVariant.toLocaleString()} samples × 2 variants, time`,
      value: `sketch ${analysisMs(sketch).toFixed(0)} ms vs sort ${analysisMs(baseline).toFixed(0)} ms = ${speedup.toFixed(2)} × faster (a pass that only reads the samples takes ${floor.ms.toFixed(0)} ms)`,
      target: "≥ 10 × faster",
      met: speedup >= 10,
    },
    {
      name: "same analysis, peak memory above the process floor",
      value: `sketch ${analysisMb(sketch).toFixed(0)} MB vs sort ${analysisMb(baseline).toFixed(0)} MB = ${memory.toFixed(3)} of the baseline (whole-process peaks ${sketch.maxRssMb.toFixed(0)} / ${baseline.maxRssMb.toFixed(0)} MB)`,
      target: "≤ 0.1",
      met: memory <= 0.1,
    },
    {
      name: "worst relative error on p50, p95, p99",
      value: `${(worst * 100).toFixed(3)} %`,
      target: "≤ 1 %",
      met: worst <= 0.01,
    },
  ];
  return [...rows, ...runImportBench()];
}

/**
 * Importing 20 million observations from a histogram's buckets, against a baseline that adds each
 * observation (what the import did before), in the same run; and how far the imported samples'
 * p50/p95/p99 are from histogram_quantile's rule on the same buckets.
 */
export function runImportBench(observations = 20_000_000): Row[] {
  const shares = [0.075, 0.2, 0.275, 0.3, 0.125, 0.0225, 0.0025];
  const bounds = [0.05, 0.1, 0.25, 0.5, 1, 2.5, Number.POSITIVE_INFINITY];
  let total = 0;
  const buckets: Bucket[] = bounds.map((upperBound, i) => ({
    upperBound,
    count: (total += Math.round(observations * shares[i]!)),
  }));
  const bulk = () => {
    const acc = newAccumulator();
    addBucketsAsSamples(acc, buckets);
    return acc;
  };
  const perObservation = () => {
    const acc = newAccumulator();
    let previousBound = 0;
    let previousCount = 0;
    for (const { upperBound, count } of buckets) {
      const n = count - previousCount;
      const upper = Number.isFinite(upperBound) ? upperBound : previousBound;
      for (let k = 0; k < n; k++)
        acc.latency.ttftMs.add((previousBound + ((upper - previousBound) * (k + 0.5)) / n) * 1000);
      previousBound = upper;
      previousCount = count;
    }
    return acc;
  };
  const time = (run: () => unknown) => {
    const start = performance.now();
    run();
    return performance.now() - start;
  };
  bulk();
  const bulkMs = Math.max(0.01, median([1, 2, 3, 4, 5].map(() => time(bulk))));
  const baselineMs = median([1, 2, 3].map(() => time(perObservation)));
  const ranks = bulk().latency.ttftMs.ranks();
  let worst = 0;
  for (const p of [0.5, 0.95, 0.99]) {
    const rule = histogramQuantile(p, buckets);
    const estimate = quantileWithCI(ranks, p);
    if (rule.kind === "value" && estimate.ok)
      worst = Math.max(worst, Math.abs(estimate.value - rule.value * 1000) / (rule.value * 1000));
    else worst = Number.POSITIVE_INFINITY;
  }
  const speedup = baselineMs / bulkMs;
  return [
    {
      name: `import of ${observations.toLocaleString()} observations from histogram buckets, vs one add() per observation (in the bench's own process)`,
      value: `${bulkMs.toFixed(1)} ms vs ${baselineMs.toFixed(0)} ms = ${speedup.toFixed(0)} × faster`,
      target: "≥ 10 × faster",
      met: speedup >= 10,
    },
    {
      name: "same import, worst relative error on p50, p95, p99 against histogram_quantile",
      value: `${(worst * 100).toFixed(3)} %`,
      target: "≤ 0.5 % (the sketch's accuracy)",
      met: worst <= 0.005,
    },
  ];
}
