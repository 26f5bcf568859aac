import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import { PRESETS, type PresetId } from "@/lib/domain/presets";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { coalesce } from "@/lib/prometheus/coalesce";
import { selector } from "@/lib/prometheus/promql";
import { FIXTURE_ENGINES, FIXTURE_VLLM_MODEL } from "@/test/fixture-exporter";
import { systemActor } from "./actor";
import { discoverHistograms } from "./discovery";
import { getLiveCapacity } from "./capacity";
import { getKpis } from "./kpis";
import { createService } from "./services";

// Each engine preset against real series under the engine's own names and labels: discovery
// recognises the histogram, and the KPIs read its percentiles where the engine has the metric and
// say "no data" where it does not.

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const raw = createPrometheusClient(inject("prometheusUrl"));
const prom = coalesce(raw, { stepSeconds: 1 });
const actor = systemActor("engines-test");
afterAll(() => db.$disconnect());

async function serviceOn(preset: PresetId, metric: string, matchers: Record<string, string>) {
  const slug = `eng-${preset.replace(/[^a-z]/g, "")}-${randomUUID().slice(0, 6)}`;
  await createService({
    db,
    actor,
    input: { slug, name: slug, stages: [], endToEndSource: { preset, metric, matchers } },
  });
  return slug;
}

describe("engine presets on their own names", () => {
  it.each(Object.entries(FIXTURE_ENGINES))(
    "%s: discovery knows the histogram and its labels",
    async (preset, engine) => {
      const found = await discoverHistograms({ prom: raw, actor, query: { match: engine.metric } });
      const histogram = found.histograms.find((h) => h.metric === engine.metric)!;
      expect(histogram).toMatchObject({ preset, kind: "classic", unit: "seconds" });
      expect(PRESETS[preset as PresetId].metrics.map((m) => m.metric)).toContain(engine.metric);
      for (const [label, value] of Object.entries(engine.labels)) expect(histogram.labels[label]).toContain(value);
      for (const label of PRESETS[preset as PresetId].labels.filter((l) => engine.labels[l]))
        expect(Object.keys(histogram.labels)).toContain(label);
    },
  );

  it.each(Object.entries(FIXTURE_ENGINES).filter(([preset]) => preset !== "tempo-spanmetrics"))(
    "%s: the KPIs read TTFT from the engine's histogram, as Prometheus computes it",
    async (preset, engine) => {
      const slug = await serviceOn(preset as PresetId, engine.metric, engine.labels);
      const view = await getKpis({ db, prom, slug, query: { window: "1m" } });
      expect(view.error).toBeNull();
      expect(view.ttftMs.metric).toBe(engine.metric);
      const q = await raw.query(
        `histogram_quantile(0.5, sum by (le) (rate(${selector(`${engine.metric}_bucket`, engine.labels)}[1m])))`,
        view.at,
      );
      if (q.status !== "success") throw new Error(q.error);
      expect(view.ttftMs.p50).toBeCloseTo(q.samples[0]!.value * 1000, 6);
    },
  );

  it("Tempo's span metrics have no TTFT: the KPIs say no data instead of a number", async () => {
    const engine = FIXTURE_ENGINES["tempo-spanmetrics"]!;
    const slug = await serviceOn("tempo-spanmetrics", engine.metric, engine.labels);
    const view = await getKpis({ db, prom, slug, query: { window: "1m" } });
    expect(view.ttftMs).toMatchObject({ p50: null, p95: null, metric: null });
    expect(view.errorRate).toBeNull();
  });

  it("vLLM V1: the end-to-end histogram and finished_reason=error count", async () => {
    const slug = await serviceOn("vllm", "vllm:e2e_request_latency_seconds", { model_name: FIXTURE_VLLM_MODEL });
    const view = await getKpis({ db, prom, slug, query: { window: "1m" } });
    expect(view.endToEndMs.metric).toBe("vllm:e2e_request_latency_seconds");
    expect(view.errorRate).toBeCloseTo(3 / 18, 9);
  });
});

describe("capacity's measured queue", () => {
  it("keeps the ≥ mark when the queue's pXX is in the +Inf bucket", async () => {
    const slug = `eng-queue-${randomUUID().slice(0, 6)}`;
    await createService({
      db,
      actor,
      input: {
        slug,
        name: slug,
        endToEndSource: { preset: "custom", metric: "fixture_ttft_seconds", matchers: {} },
        stages: [
          {
            name: "Queue",
            components: [
              {
                name: "Request queueing",
                budgetMs: { p50: null, p95: 500, p99: null },
                // slow: 1 of 10 at 2 s, above the last bound (1 s): its p95 is only "at least 1000 ms"
                source: { preset: "custom", metric: "fixture_latency_seconds", matchers: { component: "slow" } },
              },
            ],
          },
        ],
      },
    });
    const view = await getLiveCapacity({ db, prom, slug, query: { window: "1m" } });
    expect(view.queueComponent).toMatchObject({ measuredMs: 1000, measuredIsLowerBound: true });
  });
});
