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

  it("refuses a pipeline it cannot read, with the field named", async () => {
    await expect(
      proposeDraft({ prom, actor, input: { ...draft(1000), stages: [{ name: "x", components: [] }] } }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});
