import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import type { BudgetStage, MetricSource } from "@/lib/domain/budget";
import { maxRpsWithinWaitBudget } from "@/lib/domain/capacity";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { coalesce } from "@/lib/prometheus/coalesce";
import { chatApi } from "@/prisma/seed-data";
import { startPrometheus, type PrometheusServer } from "@/scripts/stack/prometheus";
import { startTrafficGenerator, type TrafficGenerator } from "@/scripts/traffic/generator";
import { testUser } from "@/test/actors";
import { getLiveCapacity } from "./capacity";
import { getKpis } from "./kpis";
import { getReport } from "./report";
import { seedOptimizations } from "./optimizations";
import { createService } from "./services";
import { createSlo } from "./slos";
import { getWhatIf } from "./whatif";

// The four insight systems on the demo's own traffic: three copies of chat-api (healthy, in the
// RAG incident, in the queue incident) scraped every second by a real Prometheus, and every
// answer checked against what Prometheus itself computes from the same series.

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const actor = testUser("insights");
const RPS = 150;
const generators: TrafficGenerator[] = [];
let prometheus: PrometheusServer;
let prom: ReturnType<typeof coalesce>;
const run = randomUUID().slice(0, 6);
const slugs = { healthy: `ins-ok-${run}`, rag: `ins-rag-${run}`, queue: `ins-queue-${run}` };

function relabel<T extends MetricSource | null>(source: T, service: string): T {
  return (source && { ...source, matchers: { ...source.matchers, service } }) as T;
}

async function seedService(slug: string) {
  const stages: BudgetStage[] = chatApi.stages.map((stage) => ({
    ...stage,
    components: stage.components.map((c) => ({ ...c, source: relabel(c.source, slug) })),
  }));
  await createService({
    db,
    actor,
    input: { ...chatApi.service, slug, stages, endToEndSource: relabel(chatApi.service.endToEndSource ?? null, slug) },
  });
  const ttftSlo = chatApi.slos!.find((s) => s.name.startsWith("TTFT"))!;
  await createSlo({ db, actor, slug, input: { ...ttftSlo, source: relabel(ttftSlo.source, slug) } });
}

/** Prometheus's own answer to one expression at `time`. */
async function scalar(expr: string, time: number): Promise<number> {
  const result = await prom.query(expr, time);
  if (result.status !== "success" || result.samples.length !== 1) throw new Error(`${expr}: ${JSON.stringify(result)}`);
  return result.samples[0]!.value;
}

beforeAll(async () => {
  for (const [mode, slug] of Object.entries(slugs)) {
    const generator = await startTrafficGenerator({ requestsPerSecond: RPS, service: slug });
    generator.setIncident(mode === "healthy" ? "none" : (mode as "rag" | "queue"));
    generators.push(generator);
    await seedService(slug);
  }
  prometheus = await startPrometheus({
    targets: generators.map((g) => g.url.replace("http://", "")),
    scrapeInterval: "1s",
  });
  prom = coalesce(createPrometheusClient(prometheus.url));
  await seedOptimizations(db, actor);
  // rate() over a minute counts a series younger than the minute short (it extrapolates only half
  // a scrape past its first sample): wait until a whole window of data exists.
  await new Promise((resolve) => setTimeout(resolve, 63_000));
}, 120_000);

afterAll(async () => {
  await prometheus?.close();
  await Promise.all(generators.map((g) => g.stop()));
  await db.$disconnect();
});

describe("what-if on the demo's traffic", () => {
  it("predicts the measured end-to-end p95 within 10 % (the end-to-end histogram comes from the same requests)", async () => {
    const view = await getWhatIf({ db, prom, slug: slugs.healthy, query: { window: "1m" } });
    expect(view.error).toBeNull();
    expect(view.missing).toEqual([]);
    const measured = view.measuredEndToEndMs!;
    expect(Math.abs(view.predictedEndToEndMs! - measured) / measured).toBeLessThan(0.1);
    // The stacked p95s overstate the end to end: percentiles do not add.
    expect(view.stackedMs!).toBeGreaterThan(measured);
    expect(view.errorBoundMs!).toBeLessThan(measured * 0.01);
  });

  it("predicts what taking 50 ms off RAG retrieval does during the RAG incident, and ×0.7", async () => {
    const base = { window: "1m", quantile: "0.95" };
    const now = await getWhatIf({ db, prom, slug: slugs.rag, query: base });
    const minus = await getWhatIf({ db, prom, slug: slugs.rag, query: { ...base, change: ["RAG retrieval:-50"] } });
    const scaled = await getWhatIf({ db, prom, slug: slugs.rag, query: { ...base, change: ["RAG retrieval:×0.7"] } });
    // RAG is on the critical path in the incident: most of the 50 ms comes off the end to end.
    const gain = now.predictedEndToEndMs! - minus.predictedEndToEndMs!;
    expect(gain).toBeGreaterThan(35);
    expect(gain).toBeLessThanOrEqual(50 + 2 * minus.errorBoundMs!);
    expect(scaled.predictedEndToEndMs!).toBeLessThan(now.predictedEndToEndMs!);
    expect(minus.changes).toEqual([{ component: "RAG retrieval", stage: "Safety ∥ RAG", change: "−50 ms" }]);
    expect(minus.attainment.predicted!).toBeGreaterThanOrEqual(now.attainment.predicted!);
  });

  it("refuses a change it cannot apply, naming the component choices", async () => {
    await expect(getWhatIf({ db, prom, slug: slugs.healthy, query: { change: ["GPU:-5"] } })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { "change.0": expect.stringMatching(/There is no component “GPU”: choose one of Network/) },
    });
  });
});

describe("KPIs on the demo's traffic", () => {
  it("reads every KPI, each equal to Prometheus's own answer over the same window", async () => {
    const view = await getKpis({ db, prom, slug: slugs.healthy, query: { window: "1m" } });
    expect(view.error).toBeNull();
    const sel = `service="${slugs.healthy}"`;
    const at = view.at;
    const expectSame = async (value: number | null, expr: string) => {
      expect(value).not.toBeNull();
      expect(value!).toBeCloseTo(await scalar(expr, at), 9);
    };
    await expectSame(
      view.errorRate,
      `sum(rate(llm_request_errors_total{${sel}}[1m])) / sum(rate(llm_requests_total{${sel}}[1m]))`,
    );
    await expectSame(
      view.timeoutRate,
      `sum(rate(llm_request_errors_total{${sel},reason="timeout"}[1m])) / sum(rate(llm_requests_total{${sel}}[1m]))`,
    );
    await expectSame(
      view.sloAttainment,
      `sum(rate(llm_request_ttft_seconds_bucket{${sel},le="0.7"}[1m])) / sum(rate(llm_request_ttft_seconds_bucket{${sel},le="+Inf"}[1m]))`,
    );
    await expectSame(view.throughputRps, `sum(rate(llm_request_ttft_seconds_bucket{${sel},le="0.7"}[1m]))`);
    await expectSame(
      view.costPerSuccessfulRequestUsd,
      `sum(rate(llm_cost_dollars_total{${sel}}[1m])) / (sum(rate(llm_requests_total{${sel}}[1m])) - sum(rate(llm_request_errors_total{${sel}}[1m])))`,
    );
    await expectSame(
      view.prefixCacheHitRate,
      `sum(rate(vllm:prefix_cache_hits_total{${sel}}[1m])) / sum(rate(vllm:prefix_cache_queries_total{${sel}}[1m]))`,
    );
    await expectSame(
      view.speculativeAcceptanceRate,
      `sum(rate(vllm:spec_decode_num_accepted_tokens_total{${sel}}[1m])) / sum(rate(vllm:spec_decode_num_draft_tokens_total{${sel}}[1m]))`,
    );
    expect(view.cacheHitRate).toBe(view.prefixCacheHitRate);
    expect(view.cacheHitRates.response!).toBeGreaterThan(0.05);
    // Percentiles: Prometheus's histogram_quantile over the same buckets.
    await expectSame(
      view.ttftMs.p95! / 1000,
      `histogram_quantile(0.95, sum by (le) (rate(llm_request_ttft_seconds_bucket{${sel}}[1m])))`,
    );
    expect(view.itlMs.metric).toBe("llm_inter_token_latency_seconds");
    expect(view.endToEndMs.metric).toBe("vllm:e2e_request_latency_seconds");
    expect(view.endToEndMs.p50!).toBeGreaterThan(view.ttftMs.p50!);
    // The demo's shares: 0.4 % errors and 0.2 % timeouts of ~9,000 requests, 70 % of drafts accepted.
    expect(view.errorRate!).toBeLessThan(0.02);
    expect(view.speculativeAcceptanceRate!).toBeGreaterThan(0.6);
    expect(view.speculativeAcceptanceRate!).toBeLessThan(0.8);
    for (const key of ["throughputRps", "errorRate", "ttftP95Ms"] as const)
      expect(
        view.sparklines[key]!.some(([, v]) => v !== null),
        key,
      ).toBe(true);
  });

  it("says “no data” (null), never 0, for a service whose metrics do not exist", async () => {
    const slug = `ins-none-${run}`;
    await createService({
      db,
      actor,
      input: {
        slug,
        name: "No metrics",
        targetMs: 500,
        endToEndSource: { preset: "custom", metric: "nothing_here_seconds", matchers: { service: slug } },
        stages: [],
      },
    });
    const view = await getKpis({ db, prom, slug, query: { window: "1m" } });
    expect(view.error).toBeNull();
    for (const key of [
      "errorRate",
      "timeoutRate",
      "costPerSuccessfulRequestUsd",
      "cacheHitRate",
      "speculativeAcceptanceRate",
      "requestRps",
    ] as const)
      expect(view[key], key).toBeNull();
    expect(view.ttftMs).toMatchObject({ p50: null, p95: null, p99: null, metric: null });
    expect(view.sloAttainment).toBeNull();
  });
});

describe("capacity on the demo's traffic", () => {
  it("places the live operating point from the counters, and the queue incident moves it up the curve", async () => {
    const healthy = await getLiveCapacity({ db, prom, slug: slugs.healthy, query: { window: "1m" } });
    const queued = await getLiveCapacity({ db, prom, slug: slugs.queue, query: { window: "1m" } });
    for (const view of [healthy, queued]) {
      expect(view.error).toBeNull();
      expect(view.notes).toEqual([]);
      expect(view.servers).toBe(60); // 8 slots per 20 RPS
      expect(view.serversSource).toBe("metric");
      expect(view.serviceTimeSource).toBe("histogram");
      // ρ = λS / c, with λ and S as Prometheus computes them.
      const sel = `service="${view.slug}"`;
      const lambda = await scalar(`sum(rate(llm_request_ttft_seconds_count{${sel}}[1m]))`, view.at);
      const s = await scalar(
        `sum(rate(vllm:request_inference_time_seconds_sum{${sel}}[1m])) / sum(rate(vllm:request_inference_time_seconds_count{${sel}}[1m]))`,
        view.at,
      );
      expect(view.arrivalRps).toBeCloseTo(lambda, 9);
      expect(view.utilization).toBeCloseTo((lambda * s) / 60, 9);
      expect(view.maxRpsWithinQueueBudget).toBeCloseTo(
        maxRpsWithinWaitBudget({ serviceTimeS: s, servers: 60 }, 0.95, 0.15),
        6,
      );
    }
    expect(healthy.arrivalRps!).toBeGreaterThan(RPS * 0.5);
    // The queue incident: requests hold their slot 0.34 s instead of 0.24 s at the same rate, so the
    // point moves up the curve by that ratio whatever rate a busy machine manages to generate.
    expect(queued.utilization! / healthy.utilization!).toBeGreaterThan(1.3);
    expect(queued.queue!.meanWaitS!).toBeGreaterThan(healthy.queue!.meanWaitS! * 2);
    expect(queued.predictedWaitMs!).toBeGreaterThanOrEqual(healthy.predictedWaitMs!);
    expect(queued.queueComponent!.measuredMs!).toBeGreaterThan(healthy.queueComponent!.measuredMs!);
    // The demo's engine is consistent: the running gauge agrees with λ × S, the measured queue with
    // the prediction, and inference times are exponential (Cs² ≈ 1, so M/G/c ≈ M/M/c).
    expect(healthy.gaps).toEqual([]);
    expect(healthy.serviceTimeCs2!).toBeGreaterThan(0.6);
    expect(healthy.serviceTimeCs2!).toBeLessThan(1.4);
    expect(healthy.predictedWaitMgcMs).not.toBeNull();
  });

  it("takes the slot count from the caller when asked", async () => {
    const view = await getLiveCapacity({ db, prom, slug: slugs.healthy, query: { window: "1m", servers: "16" } });
    expect(view).toMatchObject({ servers: 16, serversSource: "query" });
  });
});

describe("the bottleneck report on the demo's traffic", () => {
  it("names RAG retrieval the critical bottleneck during the RAG incident, in JSON and in Markdown", async () => {
    const { report } = await getReport({ db, prom, slug: slugs.rag, query: { window: "1m" } });
    expect(report.error).toBeNull();
    expect(report.summary.primary).toMatchObject({ component: "RAG retrieval", severity: "critical" });
    expect(report.bottlenecks.filter((b) => b.severity === "critical").map((b) => b.component)).toEqual([
      "RAG retrieval",
    ]);
    expect(report.recommendations.length).toBeGreaterThan(3);
    expect(report.alertRules.some((r) => r.name === "SLOErrorBudgetBurn")).toBe(true);
    const { markdown } = await getReport({ db, prom, slug: slugs.rag, query: { window: "1m", format: "md" } });
    expect(markdown).toContain("### 🔴 Critical: RAG retrieval");
  });

  it("has no critical component on healthy traffic", async () => {
    const { report } = await getReport({ db, prom, slug: slugs.healthy, query: { window: "1m" } });
    expect(report.bottlenecks.some((b) => b.severity === "critical")).toBe(false);
    expect(report.summary.withinTarget).toBe(true);
  });
});
