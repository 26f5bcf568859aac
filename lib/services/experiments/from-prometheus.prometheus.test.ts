import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { createService } from "../services";
import { createExperiment, getAnalysis } from "./experiments";
import { importFromPrometheus } from "./from-prometheus";
import { addBucketsAsSamples } from "@/lib/domain/histogram-samples";
import { newAccumulator } from "@/lib/domain/experiments";
import { RELATIVE_ACCURACY } from "@/lib/domain/stats/latency-samples";
import { quantileWithCI } from "@/lib/domain/stats/quantile-ci";
import { testUser } from "@/test/actors";

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const prom = createPrometheusClient(inject("prometheusUrl"));
const actor = testUser("pm");
afterAll(() => db.$disconnect());

describe("experiment results from Prometheus, by the variant label", () => {
  it("reads each variant's histogram and counters over the experiment's range", async () => {
    const slug = `prom-exp-${randomUUID().slice(0, 8)}`;
    await createService({ db, actor, input: { slug, name: "Fixture" } });
    const now = Math.floor(Date.now() / 1000);
    const experiment = await createExperiment({
      db,
      actor,
      input: {
        service: slug,
        name: "from prometheus",
        variants: [
          { name: "control", weight: 1 },
          { name: "treatment", weight: 1 },
        ],
        startsAt: new Date((now - 60) * 1000).toISOString(),
        endsAt: new Date(now * 1000).toISOString(),
      },
    });
    const result = await importFromPrometheus({
      db,
      actor: testUser("pm"),
      prom,
      id: experiment.id,
      input: {
        metric: "fixture_variant_ttft_seconds",
        costMetric: "fixture_cost_dollars_total",
        tokensMetric: "fixture_tokens_total",
      },
    });
    expect(result.imported.control).toBeGreaterThan(100);
    const { analysis } = await getAnalysis({ db, id: experiment.id });
    const [control, treatment] = analysis.variants;
    // 90 of 100 control requests are ≤ 0.5 s (all at 0.4 s, in the (0.2, 0.5] bucket); 10 are in (0.5, 0.7].
    const p50 = control!.indicators.ttftMs!.percentiles[0]!;
    expect(p50.ok && p50.value).toBeGreaterThan(200);
    expect(p50.ok && p50.value).toBeLessThanOrEqual(500);
    const p95c = control!.indicators.ttftMs!.percentiles[1]!;
    expect(p95c.ok && p95c.value).toBeGreaterThan(500);
    expect(p95c.ok && p95c.value).toBeLessThanOrEqual(700);
    expect(control!.costPer1kTokens!.value).toBeCloseTo(0.03, 9);
    expect(treatment!.costPer1kTokens!.value).toBeCloseTo(0.025, 9);
    expect(analysis.srm!.isMismatch).toBe(false);
  });
});

describe("20 million imported observations against Prometheus's own histogram_quantile", () => {
  it("p50, p95 and p99 of the imported samples are histogram_quantile's on the same buckets, within the sketch's accuracy", async () => {
    // The buckets as an instant vector Prometheus builds itself, one series per le.
    const buckets: [string, number][] = [
      ["0.05", 1_500_000],
      ["0.1", 4_000_000],
      ["0.25", 11_000_000],
      ["0.5", 17_000_000],
      ["1", 19_500_000],
      ["2.5", 19_950_000],
      ["+Inf", 20_000_000],
    ];
    const vector = buckets.map(([le, count]) => `label_replace(vector(${count}), "le", "${le}", "", "")`).join(" or ");
    const acc = newAccumulator();
    addBucketsAsSamples(
      acc,
      buckets.map(([le, count]) => ({ upperBound: le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le), count })),
    );
    expect(acc.requests).toBe(20_000_000);
    for (const p of [0.5, 0.95, 0.99]) {
      const answer = await prom.query(`histogram_quantile(${p}, ${vector})`, Math.floor(Date.now() / 1000));
      if (answer.status !== "success") throw new Error(answer.error);
      const prometheusMs = answer.samples[0]!.value * 1000;
      const estimate = quantileWithCI(acc.latency.ttftMs.ranks(), p);
      expect(estimate.ok).toBe(true);
      if (estimate.ok)
        expect(Math.abs(estimate.value - prometheusMs) / prometheusMs).toBeLessThanOrEqual(RELATIVE_ACCURACY * 1.01);
    }
  });
});
