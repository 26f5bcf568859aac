import { describe, expect, inject, it } from "vitest";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { coalesce } from "@/lib/prometheus/coalesce";
import { selector } from "@/lib/prometheus/promql";
import { proposeDraft } from "./proposal";
import { systemActor } from "./actor";

// Budgets proposed from spanmetrics-shaped telemetry (milliseconds, one component per span) on a
// real Prometheus: the measured figures are Prometheus's own, and the proposal fits the target.

const prom = coalesce(createPrometheusClient(inject("prometheusUrl")), { stepSeconds: 1 });
const actor = systemActor("proposal-test");
const span = (span_name: string) => ({
  preset: "otel-spanmetrics" as const,
  metric: "traces_span_metrics_duration_milliseconds",
  matchers: { service_name: "fixture-rag", span_name },
});
const draft = (targetMs: number) => ({
  quantile: 0.5,
  targetMs,
  window: "1m",
  stages: [
    { name: "Retrieve", components: [{ name: "retrieve", source: span("retrieve") }] },
    { name: "Generate", components: [{ name: "generate", source: span("generate") }] },
  ],
});

async function promQuantile(q: number, spanName: string, time: number) {
  const result = await prom.query(
    `histogram_quantile(${q}, sum by (le) (rate(${selector("traces_span_metrics_duration_milliseconds_bucket", { span_name: spanName })}[1m])))`,
    time,
  );
  if (result.status !== "success") throw new Error(result.error);
  return result.samples[0]!.value;
}

describe("proposing budgets from live telemetry", () => {
  it("measures what Prometheus measures, in ms, and fits the slack under the target", async () => {
    const view = await proposeDraft({ prom, actor, input: draft(1000) });
    const [retrieve, generate] = [view.stages[0]!.components[0]!, view.stages[1]!.components[0]!];
    expect(retrieve.measuredMs.p50).toBeCloseTo(await promQuantile(0.5, "retrieve", view.at), 6);
    expect(generate.measuredMs.p50).toBeCloseTo(await promQuantile(0.5, "generate", view.at), 6);
    // Hand-computed: retrieve p50 = 50 × 5/6 ms; generate p50 = 500 ms (5 of 10 at or under 500 ms).
    expect(retrieve.measuredMs.p50).toBeCloseTo(250 / 6, 6);
    expect(generate.measuredMs.p50).toBeCloseTo(500, 6);
    expect(generate.isLowerBound).toBe(true); // its p99 is in +Inf
    expect(view.fits).toBe(true);
    expect(view.stackedMs).toBeLessThanOrEqual(1000);
    expect(retrieve.budgetMs.p50!).toBeGreaterThanOrEqual(retrieve.measuredMs.p50!);
    expect(view.predictedEndToEndMs!).toBeLessThanOrEqual(1000);
    // generate is right-skewed: the p50 of the sum is above the sum of p50s, so the convolution
    // keeps part of the slack back rather than propose budgets the pipeline would miss.
    expect(view.headroomScale).toBeLessThan(1);
    expect(view.note).toMatch(/% of that slack is shared out/);
  });

  it("says how far over a tight target is and which cut closes it", async () => {
    const view = await proposeDraft({ prom, actor, input: draft(500) });
    expect(view.fits).toBe(false);
    expect(view.slackMs).toBeCloseTo(500 - (500 + 250 / 6), 6);
    expect(view.cuts.map((c) => c.component)).toContain("generate");
    expect(view.note).toMatch(/over the 500 ms target/);
  });

  it("a parallel stage whose predicted p50 is over the target does not fit, and a cut closes it (issue 26, item 9)", async () => {
    // fanout-a and fanout-b are each uniform on (0, 100] ms under Prometheus's reading: p50 50 ms
    // each, stacked 50 ms under a 60 ms target, but the stage's p50 is 100·√0.5 = 70.71 ms.
    const view = await proposeDraft({
      prom,
      actor,
      input: {
        quantile: 0.5,
        targetMs: 60,
        window: "1m",
        stages: [
          {
            name: "Fan-out",
            components: [
              { name: "a", source: span("fanout-a") },
              { name: "b", source: span("fanout-b") },
            ],
          },
        ],
      },
    });
    expect(view.stages[0]!.components[0]!.measuredMs.p50).toBeCloseTo(await promQuantile(0.5, "fanout-a", view.at), 6);
    expect(view.measuredStackedMs).toBeCloseTo(50, 6);
    const exact = 100 * Math.sqrt(0.5);
    expect(Math.abs(view.predictedEndToEndMs! - exact)).toBeLessThanOrEqual(view.predictedErrorBoundMs! + 1e-9);
    expect(view.fits).toBe(false);
    expect(view.cuts.length).toBeGreaterThan(0);
    expect(view.cuts[0]!.predictedEndToEndMs!).toBeLessThanOrEqual(60);
    // One bucket of (0, 50] and one of (50, 100]: at lower edges the stage's p50 is 50 ms, at upper
    // edges 100 ms; 60 ms lies between.
    expect(view.verdict).toBe("undecided");
    expect(view.bucketBounds!.lowerMs).toBeLessThanOrEqual(50);
    expect(view.bucketBounds!.upperMs!).toBeGreaterThanOrEqual(100);
    expect(view.note).toMatch(/over the target/);
  });

  it("refuses a pipeline it cannot read, with the field named", async () => {
    await expect(
      proposeDraft({ prom, actor, input: { ...draft(1000), stages: [{ name: "x", components: [] }] } }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});
