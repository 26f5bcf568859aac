import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { coalesce } from "@/lib/prometheus/coalesce";
import { selector } from "@/lib/prometheus/promql";
import { queryRange } from "@/lib/prometheus/range";
import { startBackfilledPrometheus } from "@/scripts/stack/backfill";
import type { PrometheusServer } from "@/scripts/stack/prometheus";
import { testUser } from "@/test/actors";
import { createAnnotation } from "./annotations";
import { createService } from "./services";
import { getTimeline } from "./timeline";

// Three hours of two components in a real Prometheus (promtool backfill): RAG retrieval answers
// in ≤ 100 ms until a switch at a known minute, then in (250, 500] ms. The timeline's points must
// be Prometheus's own histogram_quantile over the rate window it names, and "over budget since"
// must land within one step of the switch.

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const actor = testUser("test");
const slug = `tl-${randomUUID().slice(0, 8)}`;
const MINUTE = 60;
const end = Math.floor(Date.now() / 1000 / 60) * 60 - MINUTE;
const start = end - 3 * 3600;
const incident = end - 40 * MINUTE;
let prometheus: PrometheusServer;

beforeAll(async () => {
  await createService({
    db,
    actor,
    input: {
      slug,
      name: "Timeline",
      targetMs: 1000,
      stages: [
        {
          name: "Retrieval",
          components: [
            {
              name: "RAG retrieval",
              budgetMs: { p50: null, p95: 150, p99: null },
              source: { preset: "custom", metric: "tl_rag_seconds", matchers: {} },
            },
            {
              name: "Safety",
              budgetMs: { p50: null, p95: 200, p99: null },
              source: { preset: "custom", metric: "tl_safety_seconds", matchers: {} },
            },
          ],
        },
      ],
    },
  });
  prometheus = await startBackfilledPrometheus({
    dir: join(mkdtempSync(join(tmpdir(), "lb-timeline-")), "prometheus"),
    histograms: [
      // Safety: always 60 % ≤ 50 ms, the rest ≤ 100 ms. RAG the same until the incident, then all in (250, 500] ms.
      {
        metric: "tl_safety_seconds",
        bounds: [0.05, 0.1, 0.25, 0.5, 1],
        instances: [{ instance: "a" }],
        requestsPerStep: 100,
        shareUnder: (bound) => (bound >= 0.1 ? 1 : 0.6),
      },
      {
        metric: "tl_rag_seconds",
        bounds: [0.05, 0.1, 0.25, 0.5, 1],
        instances: [{ instance: "a" }],
        requestsPerStep: 100,
        shareUnder: (bound, t) => (t > incident ? (bound >= 0.5 ? 1 : 0) : bound >= 0.1 ? 1 : 0.6),
      },
    ],
    range: { start, end, stepSeconds: MINUTE },
  });
}, 180_000);

afterAll(async () => {
  await prometheus?.close();
  await db.$disconnect();
});

describe("the waterfall timeline against a backfilled Prometheus", () => {
  it("has Prometheus's own histogram_quantile at every point, over the rate window it names", async () => {
    const prom = coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 20_000 }));
    const view = await getTimeline({ db, prom, slug, query: { range: "3h", quantile: "0.95" }, now: end });
    expect(view.error).toBeNull();
    expect(view.stepSeconds).toBe(60);
    expect(view.rateWindow).toBe("5m");
    expect(view.end).toBe(end);
    expect(view.series.map((s) => s.component)).toEqual(["RAG retrieval", "Safety"]);
    for (const series of view.series) {
      const metric = series.component === "Safety" ? "tl_safety_seconds_bucket" : "tl_rag_seconds_bucket";
      const theirs = await queryRange(
        createPrometheusClient(prometheus.url),
        `histogram_quantile(0.95, sum by (le) (rate(${selector(metric, {})}[${view.rateWindow}])))`,
        { start: view.start, end: view.end, step: view.stepSeconds },
      );
      if (theirs.status !== "success") throw new Error(theirs.error);
      const expected = new Map(theirs.series[0]!.points.map(([t, v]) => [t, v * 1000]));
      let compared = 0;
      for (const [t, ms] of series.points) {
        const want = expected.get(t);
        if (want === undefined || Number.isNaN(want)) {
          expect(ms, `no data at ${t}`).toBeNull();
          continue;
        }
        expect(ms).toBeCloseTo(want, 6);
        compared++;
      }
      expect(compared).toBeGreaterThan(170);
    }
  });

  it("says RAG retrieval has been over budget since the incident began, within one step", async () => {
    const prom = coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 20_000 }));
    const view = await getTimeline({ db, prom, slug, query: { range: "3h" }, now: end });
    const rag = view.series.find((s) => s.component === "RAG retrieval")!;
    const safety = view.series.find((s) => s.component === "Safety")!;
    expect(rag.overBudgetSince).not.toBeNull();
    expect(Math.abs(rag.overBudgetSince! - incident)).toBeLessThanOrEqual(view.stepSeconds);
    expect(rag.overBudgetSinceRangeStart).toBe(false);
    expect(safety.overBudgetSince).toBeNull();
    // Before the incident RAG's p95 is in (50, 100] ms; after it, in (250, 500].
    const before = rag.points.find(([t]) => t === incident - 10 * MINUTE)![1]!;
    const after = rag.points.at(-1)![1]!;
    expect(before).toBeGreaterThan(50);
    expect(before).toBeLessThanOrEqual(100);
    expect(after).toBeGreaterThan(250);
    expect(after).toBeLessThanOrEqual(500);
  });

  it("carries the annotations of its range, as plain text", async () => {
    const text = "<img src=x onerror=alert(1)> deploy {{ .Value }} v2.3.1";
    await createAnnotation({ db, actor, input: { service: slug, at: incident, text, tags: ["deploy", "rag"] } });
    await createAnnotation({ db, actor, input: { service: slug, at: start - 3600, text: "too early" } });
    const prom = coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 20_000 }));
    const view = await getTimeline({ db, prom, slug, query: { range: "3h" }, now: end });
    expect(view.annotations.map((a) => [a.at, a.kind, a.text, a.tags])).toEqual([
      [incident, "note", text, ["deploy", "rag"]],
    ]);
  });
});
