import { describe, expect, inject, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { testUser } from "@/test/actors";
import { ANONYMOUS, systemActor } from "./actor";
import { discoverHistograms, DISCOVERY_LIMITS } from "./discovery";

// Discovery against a real Prometheus scraping the fixture exporters: classic histograms in
// seconds and milliseconds, native histograms, and engine names the presets know.

const prom = createPrometheusClient(inject("prometheusUrl"));
const actor = systemActor("discovery-test");

describe("discovering histograms", () => {
  it("lists classic and native histograms with their unit, preset, role and label values", async () => {
    const found = await discoverHistograms({ prom, actor, query: {} });
    const by = Object.fromEntries(found.histograms.map((h) => [h.metric, h]));
    expect(by["traces_span_metrics_duration_milliseconds"]).toMatchObject({
      kind: "classic",
      unit: "milliseconds",
      unitFrom: "name",
      preset: "otel-spanmetrics",
      role: "span",
      series: 2,
      truncated: false,
    });
    expect(by["traces_span_metrics_duration_milliseconds"]!.labels.span_name).toEqual(["generate", "retrieve"]);
    expect(by["fixture_native_latency_seconds"]).toMatchObject({ kind: "native", unit: "seconds", series: 2 });
    expect(by["fixture_native_latency_seconds"]!.labels.component).toEqual(["fast", "slow"]);
    expect(by["fixture_native_duration_milliseconds"]).toMatchObject({ kind: "native", unit: "milliseconds" });
    expect(by["vllm:e2e_request_latency_seconds"]).toMatchObject({ preset: "vllm", role: "e2e" });
    expect(by["fixture_latency_seconds"]).toMatchObject({ kind: "classic", preset: null, role: null });
    // le is a bucket bound, never a matcher.
    expect(by["fixture_latency_seconds"]!.labels.le).toBeUndefined();
    // Histograms a preset knows come first.
    const firstUnknown = found.histograms.findIndex((h) => h.preset === null);
    expect(found.histograms.slice(firstUnknown).every((h) => h.preset === null)).toBe(true);
  });

  it("narrows by substring, case-insensitively", async () => {
    const found = await discoverHistograms({ prom, actor, query: { match: "NATIVE" } });
    expect(found.histograms.map((h) => h.metric).sort()).toEqual([
      "fixture_native_duration_milliseconds",
      "fixture_native_latency_seconds",
    ]);
    expect(found).toMatchObject({ omitted: 0, truncated: false, note: null });
  });

  it("caps label values per label and says the list is a sample", async () => {
    // The hostile-label fixture has 6 values of "component"; everything else is under the cap.
    const found = await discoverHistograms({ prom, actor, query: { match: "fixture_latency" } });
    const stage = found.histograms.find((h) => h.metric === "fixture_latency_seconds")!;
    expect(stage.labels.component!.length).toBeLessThanOrEqual(DISCOVERY_LIMITS.values);
    expect(stage.labels.component).toContain('a"} or vector(1) #');
  });

  it("refuses bad input with a 400 and nobody without rights", async () => {
    await expect(discoverHistograms({ prom, actor, query: { match: "a\u0000b" } })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(discoverHistograms({ prom, actor: ANONYMOUS, query: {} })).rejects.toBeInstanceOf(AppError);
    await expect(discoverHistograms({ prom, actor: testUser("viewer", "viewer"), query: {} })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});
