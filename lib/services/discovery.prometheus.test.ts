import { describe, expect, inject, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { testUser } from "@/test/actors";
import { ANONYMOUS, systemActor } from "./actor";
import { coalesce } from "@/lib/prometheus/coalesce";
import { MISLABELLED_MS_METRIC, UNITLESS_MS_METRIC } from "@/test/fixture-exporter";
import { UNITLESS_MS_NATIVE_METRIC } from "@/test/native-exporter";
import { discoverHistograms, DISCOVERY_LIMITS } from "./discovery";
import { getBucketBounds } from "./slos";

// Discovery against a real Prometheus scraping the fixture exporters: classic histograms in
// seconds and milliseconds, native histograms, and engine names the presets know.

const prom = createPrometheusClient(inject("prometheusUrl"));
const actor = systemActor("discovery-test");

describe("bucket bounds that do not fit the unit", () => {
  it("a ms-bounded histogram with no unit in its name is flagged: its bounds look like milliseconds", async () => {
    const found = await discoverHistograms({ prom, actor, query: { match: UNITLESS_MS_METRIC } });
    expect(found.histograms[0]).toMatchObject({
      metric: UNITLESS_MS_METRIC,
      unit: "seconds",
      unitFrom: "default",
      suggestedUnit: "milliseconds",
    });
    expect(found.histograms[0]!.unitWarning).toContain("look like milliseconds, not seconds");
  });

  it("a native histogram in ms with no unit in its name is flagged too: its buckets' bounds look like milliseconds", async () => {
    const found = await discoverHistograms({ prom, actor, query: { match: UNITLESS_MS_NATIVE_METRIC } });
    expect(found.histograms[0]).toMatchObject({
      metric: UNITLESS_MS_NATIVE_METRIC,
      kind: "native",
      unit: "seconds",
      unitFrom: "default",
      suggestedUnit: "milliseconds",
    });
    expect(found.histograms[0]!.unitWarning).toContain("look like milliseconds, not seconds");
  });

  it("a _milliseconds histogram whose bounds are in seconds is flagged: they look like seconds", async () => {
    const found = await discoverHistograms({ prom, actor, query: { match: MISLABELLED_MS_METRIC } });
    expect(found.histograms[0]).toMatchObject({ unit: "milliseconds", unitFrom: "name", suggestedUnit: "seconds" });
    expect(found.histograms[0]!.unitWarning).toBe(
      "The bucket bounds (0.05 … 1) look like seconds, not milliseconds: read as milliseconds they put the smallest bucket at 0.00005 s and the largest at 0.001 s.",
    );
  });

  it("histograms whose bounds fit their unit are not flagged", async () => {
    const found = await discoverHistograms({ prom, actor, query: {} });
    const flagged = found.histograms.filter((h) => h.unitWarning !== null).map((h) => h.metric);
    expect(flagged.sort()).toEqual([MISLABELLED_MS_METRIC, UNITLESS_MS_METRIC, UNITLESS_MS_NATIVE_METRIC].sort());
  });

  it("the source preview says so too, and the unit it proposes reads Prometheus's own answer", async () => {
    const coalescing = coalesce(createPrometheusClient(inject("prometheusUrl")));
    const source = { preset: "custom" as const, metric: UNITLESS_MS_METRIC, matchers: {} };
    const asRead = await getBucketBounds({ prom: coalescing, actor, input: { source } });
    expect(asRead.unitCheck).toMatchObject({ unit: "seconds", suggestedUnit: "milliseconds" });
    // Read as seconds, p50 is 1000 × too large: the 1,400,000 ms.
    expect(asRead.percentilesMs.p50).toBeGreaterThan(100_000);
    const fixed = await getBucketBounds({
      prom: coalescing,
      actor,
      input: { source: { ...source, unit: "milliseconds" } },
    });
    expect(fixed.unitCheck).toBeNull();
    const theirs = await prom.query(
      `histogram_quantile(0.5, sum by (le) (rate(${UNITLESS_MS_METRIC}_bucket[5m])))`,
      coalescing.alignTime(Date.now() / 1000),
    );
    if (theirs.status !== "success") throw new Error(theirs.error);
    expect(fixed.percentilesMs.p50).toBeCloseTo(theirs.samples[0]!.value, 6);
  });
});

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
      series: 4,
      truncated: false,
    });
    expect(by["traces_span_metrics_duration_milliseconds"]!.labels.span_name).toEqual(["fanout-a", "fanout-b", "generate", "retrieve"]);
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
