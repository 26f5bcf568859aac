// 28-day SLOs at scale: a month of synthetic histograms (≥ 500 series) backfilled into a throwaway
// Prometheus with promtool, the generated recording rules backfilled over the same month and
// loaded. Prints, from one run: the 28-day SLO answer from recorded series against the same SLO
// read from raw buckets, and against a 5-minute waterfall of 10 components; and how far the two
// attainments are apart.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb } from "../lib/db/create";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { applyMigrations } from "../lib/db/migrate/migrations";
import { createPrometheusClient } from "../lib/prometheus/client";
import { coalesce } from "../lib/prometheus/coalesce";
import { getRulesFile } from "../lib/services/rules";
import { createService } from "../lib/services/services";
import { createSlo, getSloStatuses } from "../lib/services/slos";
import { getWaterfall } from "../lib/services/waterfall";
import { backfillRecordingRules, startBackfilledPrometheus } from "../scripts/stack/backfill";
import { systemActor } from "../lib/services/actor";
import { median } from "./measure";

type Row = { name: string; value: string; target: string; met: boolean };

const DAYS = 29; // 28 days of window plus one of margin
const STEP = Number(process.env.LB_BENCH_STEP_SECONDS ?? 60);
const INSTANCES = 34; // × (13 buckets + _count + _sum) = 510 series
const BOUNDS = [0.025, 0.05, 0.1, 0.15, 0.25, 0.35, 0.5, 0.7, 1, 1.5, 2.5, 5];

/** Log-normal-ish latencies with a slow day in the middle of the month: attainment is not 100 %. */
function shareUnder(end: number) {
  const slowFrom = end - 12 * 86400;
  return (bound: number, t: number) => {
    const slow = t > slowFrom && t <= slowFrom + 86400 ? 0.25 : 0;
    const z = (Math.log(bound) - Math.log(0.3 + slow)) / 0.6;
    return Math.min(1, Math.max(0, 0.5 * (1 + Math.tanh(z * 0.8))));
  };
}

async function settle(url: string, log: (s: string) => void): Promise<void> {
  // Prometheus compacts the many 2-hour blocks promtool writes; measure after it is done.
  let last = "";
  for (let i = 0; i < 60; i++) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const blocks = /^prometheus_tsdb_blocks_loaded (\S+)/m.exec(text)?.[1] ?? "";
    if (blocks === last && i > 5) return; // compaction ticks every minute: unchanged for over a minute
    if (blocks !== last) log(`  ${blocks} TSDB blocks loaded…`);
    last = blocks;
    await new Promise((r) => setTimeout(r, 15_000));
  }
}

export async function runLongWindowBench(log: (s: string) => void = console.log): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "lb-bench-long-"));
  const database = await startEmbeddedPostgres();
  await applyMigrations(database.url);
  const db = createDb(database.url, 4);
  const actor = systemActor("bench");
  const end = Math.floor(Date.now() / 1000 / STEP) * STEP - STEP;
  const start = end - DAYS * 86400;
  const source = { preset: "custom", metric: "bench_latency_seconds", matchers: { service: "bench" } };
  const slo = { name: "TTFT under 700 ms", source, thresholdMs: 700, objective: 0.99, windowDays: 28 };
  const instances = Array.from({ length: INSTANCES }, (_, i) => ({ service: "bench", instance: `i${i}` }));
  try {
    await createService({ db, actor, input: { slug: "recorded", name: "Recorded", stages: [] } });
    await createService({ db, actor, input: { slug: "raw", name: "Raw", stages: [] } });
    await createSlo({ db, actor, slug: "recorded", input: slo });
    await createSlo({ db, actor, slug: "raw", input: slo });
    await createService({
      db,
      actor,
      input: {
        slug: "waterfall",
        name: "Waterfall",
        stages: instances.slice(0, 10).map((matchers, i) => ({
          name: `stage ${i}`,
          components: [
            { name: `component ${i}`, budgetMs: { p50: null, p95: 700, p99: null }, source: { ...source, matchers } },
          ],
        })),
      },
    });
    // Only the "recorded" service's rules are loaded; "raw" has the same SLO without them.
    const { text } = await getRulesFile({ db, prom: null, slug: "recorded", dashboardUrl: "http://bench" });
    writeFileSync(join(dir, "rules.yaml"), text);
    writeFileSync(join(dir, "recording.yaml"), backfillRecordingRules(text));

    log(`Backfilling ${DAYS} days × ${INSTANCES * (BOUNDS.length + 3)} series every ${STEP} s…`);
    const startedAt = performance.now();
    const prometheus = await startBackfilledPrometheus({
      dir: join(dir, "prometheus"),
      histograms: [
        {
          metric: "bench_latency_seconds",
          bounds: BOUNDS,
          instances,
          requestsPerStep: 120,
          shareUnder: shareUnder(end),
        },
      ],
      range: { start, end, stepSeconds: STEP },
      recordingRules: join(dir, "recording.yaml"),
      ruleFiles: [join(dir, "rules.yaml")],
      evaluationInterval: "1m",
      log: (line) => log(`  ${line}`),
    });
    log(`  ready in ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
    try {
      await settle(prometheus.url, log);
      // One client per path, as separate app instances would have: no path answers from the other's cache.
      const client = () => coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 60_000 }));
      const [recordedProm, rawProm, waterfallProm] = [client(), client(), client()];
      // Times inside the backfilled month (its last sample is at `end`; the backfill and compaction
      // can take longer than Prometheus's 5-minute lookback), a new aligned time each run: no
      // cache answers.
      const at = (i: number) => end - 5 * (i + 1);
      const recordedMs: number[] = [];
      const rawMs: number[] = [];
      const waterfallMs: number[] = [];
      let recorded = null;
      let raw = null;
      for (let i = 0; i < 7; i++) {
        let t = performance.now();
        [recorded] = await getSloStatuses({ db, prom: recordedProm, slug: "recorded", now: at(i) });
        recordedMs.push(performance.now() - t);
        t = performance.now();
        [raw] = await getSloStatuses({ db, prom: rawProm, slug: "raw", now: at(i) });
        rawMs.push(performance.now() - t);
        t = performance.now();
        await getWaterfall({ db, prom: waterfallProm, slug: "waterfall", query: { window: "5m", at: String(at(i)) } });
        waterfallMs.push(performance.now() - t);
      }
      if (recorded?.dataPath.kind !== "recorded") log(`  recorded path not used: ${recorded?.dataPath.note}`);
      const [rec, rw, wf] = [recordedMs, rawMs, waterfallMs].map(median) as [number, number, number];
      const gap = Math.abs((recorded?.attainment ?? 0) - (raw?.attainment ?? 1));
      return [
        {
          name: "28-day SLO from recorded series vs raw buckets",
          value: `median ${rec.toFixed(1)} ms vs ${rw.toFixed(1)} ms = ${(rw / rec).toFixed(1)} × faster`,
          target: "≥ 10 × faster",
          met: recorded?.dataPath.kind === "recorded" && rw / rec >= 10,
        },
        {
          name: "28-day SLO from recorded series vs a 5-minute waterfall of 10 components",
          value: `${rec.toFixed(1)} ms = ${(rec / wf).toFixed(2)} × the waterfall's ${wf.toFixed(1)} ms`,
          target: "≤ 2 ×",
          met: rec / wf <= 2,
        },
        {
          name: "28-day attainment, recorded vs raw",
          value: `${((recorded?.attainment ?? 0) * 100).toFixed(4)} % vs ${((raw?.attainment ?? 0) * 100).toFixed(4)} %: ${(gap * 100).toFixed(4)} points apart`,
          target: "≤ 0.1 %",
          met: gap <= 0.001,
        },
      ];
    } finally {
      await prometheus.close();
    }
  } finally {
    await db.$disconnect();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
