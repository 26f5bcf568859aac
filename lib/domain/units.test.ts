import { describe, expect, it } from "vitest";
import { nativeToCumulative, histogramQuantile } from "./histogram";
import { presetOf, presetUnit } from "./presets";
import { msToUnit, resolveUnit, unitFromMetadata, unitFromName } from "./units";

describe("a histogram's unit", () => {
  it.each([
    ["traces_span_metrics_duration_milliseconds", "milliseconds"],
    ["http_server_duration_ms", "milliseconds"],
    ["rpc_ms_latency", "milliseconds"],
    ["vllm:e2e_request_latency_seconds", "seconds"],
    ["traces_span_metrics_duration_seconds", "seconds"],
    ["traces_spanmetrics_latency", null],
    ["params_count", null],
    ["msg_latency", null],
  ])("%s → %s", (name, unit) => {
    expect(unitFromName(name)).toBe(unit);
  });

  it("is read from the name, then metadata, then defaults to seconds; a set unit wins", () => {
    expect(resolveUnit({ metric: "x_milliseconds" })).toEqual({ unit: "milliseconds", from: "name" });
    expect(resolveUnit({ metric: "latency" }, { unit: "ms" })).toEqual({ unit: "milliseconds", from: "metadata" });
    expect(resolveUnit({ metric: "latency" }, { help: "Request latency in ms." })).toEqual({
      unit: "milliseconds",
      from: "metadata",
    });
    expect(resolveUnit({ metric: "latency" })).toEqual({ unit: "seconds", from: "default" });
    expect(resolveUnit({ metric: "x_milliseconds", unit: "seconds" })).toEqual({ unit: "seconds", from: "source" });
    expect(unitFromMetadata({ help: "Time to first token in seconds." })).toBe("seconds");
  });

  it("thresholds are written in the histogram's unit: 400 ms is 0.4 s and 400 ms", () => {
    expect(msToUnit(400, "seconds")).toBe(0.4);
    expect(msToUnit(400, "milliseconds")).toBe(400);
  });

  it("presets know the engines' names, old ones too, and say the unit the name does not", () => {
    expect(presetOf("vllm:request_time_per_output_token_seconds")).toMatchObject({ preset: "vllm", role: "itl" });
    expect(presetOf("vllm:time_per_output_token_seconds")).toMatchObject({ preset: "vllm", legacy: true });
    expect(presetOf("sglang:time_to_first_token_seconds")).toMatchObject({ preset: "sglang", role: "ttft" });
    expect(presetOf("traces_span_metrics_duration_milliseconds")).toMatchObject({ preset: "otel-spanmetrics" });
    expect(presetUnit("traces_spanmetrics_latency")).toBe("seconds");
    expect(presetOf("my_histogram")).toBeNull();
  });
});

describe("a native histogram as cumulative buckets", () => {
  it("interpolates inside [lower, upper] of a bucket, not from 0 or from the previous bucket", () => {
    // 10 in (0.5, 0.6], 10 in (1, 1.2]: p25 is halfway into the first bucket, p75 into the second.
    const buckets = nativeToCumulative(
      [
        { lower: 1, upper: 1.2, count: 10 },
        { lower: 0.5, upper: 0.6, count: 10 },
      ],
      20,
    );
    expect(histogramQuantile(0.25, buckets)).toEqual({ kind: "value", value: 0.55 });
    expect(histogramQuantile(0.75, buckets).kind).toBe("value");
    expect((histogramQuantile(0.75, buckets) as { value: number }).value).toBeCloseTo(1.1, 12);
  });

  it("the zero bucket counts from 0; the total is the histogram count, not the buckets' noisy sum", () => {
    const buckets = nativeToCumulative(
      [
        { lower: -0.001, upper: 0.001, count: 2 },
        { lower: 0.1, upper: 0.2, count: 15.272 },
        { lower: 0.5, upper: 0.6, count: 9.1632 },
        { lower: 0.7, upper: 0.8, count: 3.0544 },
        { lower: 1.8, upper: 2, count: 3.0544 - 2 },
      ],
      30.544,
    );
    expect(histogramQuantile(0.01, buckets)).toMatchObject({ kind: "value" });
    expect((histogramQuantile(0.01, buckets) as { value: number }).value).toBeLessThanOrEqual(0.001);
    // 2 + 15.272 − 2 … the sum of the buckets is 30.544000000000004; the count is 30.544
    expect(buckets[buckets.length - 1]).toEqual({ upperBound: Number.POSITIVE_INFINITY, count: 30.544 });
  });
});
