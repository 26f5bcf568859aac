// Experiment analysis of 10 million samples per variant: the sketch path against a baseline
// that keeps and sorts every sample, each in a fresh process, in the same run.
// Targets (issues: A/B latency experiments; speed under load): ≥ 10 × faster, ≤ 1/10 of the baseline's peak
// memory, worst relative error on p50/p95/p99 ≤ 1 %.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

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
  return rows;
}
