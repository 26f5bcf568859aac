// The waterfall timeline at scale: a day of a 10-component service (each component 3 instances ×
// 12 buckets, scraped every 15 s) backfilled into a throwaway Prometheus with promtool. Prints,
// from one run: the 24-hour timeline (all components, the default 10-minute step) against the
// snapshot waterfall of the same service, and against the same query_range sent straight to
// Prometheus (what is ours on top of Prometheus's own work).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb } from "../lib/db/create";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { applyMigrations } from "../lib/db/migrate/migrations";
import { rateWindowFor, timelineSpan } from "../lib/domain/timeline";
import { componentKey } from "../lib/domain/waterfall";
import { createPrometheusClient } from "../lib/prometheus/client";
import { coalesce } from "../lib/prometheus/coalesce";
import { GROUP_LABEL } from "../lib/prometheus/buckets";
import { taggedBucketQuery } from "../lib/prometheus/promql";
import { systemActor } from "../lib/services/actor";
import { createService } from "../lib/services/services";
import { getTimeline } from "../lib/services/timeline";
import { getWaterfall } from "../lib/services/waterfall";
import { startBackfilledPrometheus } from "../scripts/stack/backfill";
import { median, timed } from "./measure";

type Row = { name: string; value: string; target: string; met: boolean };

const COMPONENTS = 10;
const STEP = 15;
const BOUNDS = [0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.35, 0.5, 0.7, 1, 2.5];
/**
 * The budget: 24 h at 10-minute steps is 145 instants of every component; in one query_range
 * Prometheus shares the work between them, and the whole day must cost at most 20 snapshots.
 */
const TIMELINE_BUDGET = 20;
/** Our share on top of Prometheus's own query_range (building 145 waterfalls, JSON, annotations). */
const OVERHEAD_BUDGET = 1.25;

export async function runTimelineBench(log: (s: string) => void = console.log): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "lb-bench-timeline-"));
  const database = await startEmbeddedPostgres();
  await applyMigrations(database.url);
  const db = createDb(database.url, 4);
  const end = Math.floor(Date.now() / 1000 / 600) * 600 - 600;
  const start = end - 86400 - 3600;
  const stages = Array.from({ length: COMPONENTS }, (_, i) => ({
    name: `stage ${i}`,
    components: [
      {
        name: `c${i}`,
        budgetMs: { p50: null, p95: 300, p99: null },
        source: { preset: "custom", metric: "bench_stage_seconds", matchers: { stage: `s${i}` } },
      },
    ],
  }));
  const prometheus = await startBackfilledPrometheus({
    dir: join(dir, "prometheus"),
    histograms: [
      {
        metric: "bench_stage_seconds",
        bounds: BOUNDS,
        instances: Array.from({ length: COMPONENTS * 3 }, (_, i) => ({
          stage: `s${i % COMPONENTS}`,
          instance: `i${i}`,
        })),
        requestsPerStep: 50,
        // A day with a slow afternoon: percentiles move, so every step's quantile is real work.
        shareUnder: (bound, t) => {
          const slow = Math.sin(((t - start) / 86400) * Math.PI * 2) > 0.7 ? 0.2 : 0;
          const z = (Math.log(bound) - Math.log(0.12 + slow)) / 0.7;
          return Math.min(1, Math.max(0, 0.5 * (1 + Math.tanh(z))));
        },
      },
    ],
    range: { start, end, stepSeconds: STEP },
    log,
  });
  try {
    await createService({ db, actor: systemActor("bench"), input: { slug: "day", name: "Day", stages } });
    const client = createPrometheusClient(prometheus.url, { timeoutMs: 30_000 });
    const span = timelineSpan("24h", end);
    const rateWindow = rateWindowFor(300, span.stepSeconds);
    const sources = stages.map((s, i) => ({ key: componentKey(i, 0), source: s.components[0]!.source }));
    const query = taggedBucketQuery(sources, { fn: "rate", window: rateWindow, groupLabel: GROUP_LABEL });
    // Each run its own end (a step apart) and a fresh coalescing client: nothing is answered from a cache.
    const ends = Array.from({ length: 9 }, (_, i) => end - i * span.stepSeconds);
    const timeline = (at: number) =>
      getTimeline({ db, prom: coalesce(client), slug: "day", query: { range: "24h" }, now: at });
    const snapshot = (at: number) =>
      getWaterfall({ db, prom: coalesce(client), slug: "day", query: { window: "5m" }, now: at });
    const raw = (at: number) => {
      const s = timelineSpan("24h", at);
      return fetch(`${prometheus.url}/api/v1/query_range`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ query, start: String(s.start), end: String(s.end), step: String(s.stepSeconds) }),
      }).then((r) => r.arrayBuffer());
    };
    await timeline(end + 1);
    await snapshot(end + 1);
    await raw(end + 1);
    const check = await timeline(end);
    const points = check.series.reduce((n, s) => n + s.points.filter(([, v]) => v !== null).length, 0);
    const timelineMs: number[] = [];
    const snapshotMs: number[] = [];
    const rawMs: number[] = [];
    for (const at of ends) {
      timelineMs.push(await timed(() => timeline(at)));
      snapshotMs.push(await timed(() => snapshot(at)));
      rawMs.push(await timed(() => raw(at)));
    }
    const [t, s, r] = [median(timelineMs), median(snapshotMs), median(rawMs)];
    return [
      {
        name: `timeline, 24 h of ${COMPONENTS} components at ${span.stepSeconds / 60}-minute steps (${points} points), vs the snapshot waterfall`,
        value: `median ${t.toFixed(1)} ms = ${(t / s).toFixed(2)} × the snapshot's ${s.toFixed(1)} ms`,
        target: `≤ ${TIMELINE_BUDGET} ×`,
        met: t / s <= TIMELINE_BUDGET,
      },
      {
        name: "timeline vs the same query_range straight to Prometheus",
        value: `${(t / r).toFixed(2)} × Prometheus's ${r.toFixed(1)} ms`,
        target: `≤ ${OVERHEAD_BUDGET} ×`,
        met: t / r <= OVERHEAD_BUDGET,
      },
    ];
  } finally {
    await prometheus.close();
    await db.$disconnect();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await runTimelineBench())
    console.log(`${row.met ? "✓" : "✗"} ${row.name}: ${row.value} (target ${row.target})`);
}
