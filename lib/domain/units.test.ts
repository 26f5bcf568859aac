import { describe, expect, it } from "vitest";
import { adjustZeroBucket, nativeToCumulative, histogramQuantile, type Bucket } from "./histogram";
import { presetOf, presetUnit } from "./presets";
import { goodAndTotal } from "./slo";
import {
  checkUnit,
  msToUnit,
  resolveUnit,
  secondsExpr,
  toSeconds,
  unitFromMetadata,
  unitFromName,
  unitToMs,
} from "./units";

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
    ["rpc_latency_msec", "milliseconds"],
    ["db_query_duration_millis", "milliseconds"],
    ["db_query_duration_millis_bucket", "milliseconds"],
    ["grpc_server_handling_us", "microseconds"],
    ["grpc_server_handling_us_bucket", "microseconds"],
    ["gc_pause_microseconds", "microseconds"],
    ["gc_pause_micros_count", "microseconds"],
    ["scheduler_tick_nanoseconds_sum", "nanoseconds"],
    ["go_sched_latency_ns", "nanoseconds"],
    ["go_sched_latency_ns_bucket", "nanoseconds"],
    ["http_request_duration_seconds_bucket", "seconds"],
    // "us" and "ns" are units only as the last word: a region or a namespace elsewhere.
    ["us_east_request_duration_seconds", "seconds"],
    ["us_east_request_latency", null],
    ["ns_lookup_latency", null],
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

  it.each([
    ["seconds", 0.7, 700, 0.7, "x"],
    ["milliseconds", 700, 700, 0.7, "(x / 1000)"],
    ["microseconds", 700000, 700, 0.7, "(x / 1000000)"],
    ["nanoseconds", 700000000, 700, 0.7, "(x / 1000000000)"],
    ["microseconds", 250, 0.25, 0.00025, "(x / 1000000)"],
  ] as const)("%s: le %s is %s ms and %s s, and back", (unit, le, ms, seconds, expr) => {
    expect(unitToMs(le, unit)).toBe(ms);
    expect(toSeconds(le, unit)).toBe(seconds);
    expect(msToUnit(ms, unit)).toBe(le);
    expect(secondsExpr("x", unit)).toBe(expr);
  });

  it("metadata may state any of the units", () => {
    expect(unitFromMetadata({ unit: "us" })).toBe("microseconds");
    expect(unitFromMetadata({ unit: "nanoseconds" })).toBe("nanoseconds");
    expect(unitFromMetadata({ help: "Handling time in microseconds." })).toBe("microseconds");
    expect(unitFromMetadata({ help: "Pause (ns)" })).toBe("nanoseconds");
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
    expect(buckets[buckets.length - 1]).toEqual({
      upperBound: Number.POSITIVE_INFINITY,
      count: 30.544,
      isNativeCount: true,
    });
  });

  it("ranks against the histogram's count even when the buckets' sum is a float step below it", () => {
    // A rate Prometheus 2.42 answered for sum(rate(m[30s])): 6, 3 and 1 observations a scrape.
    // The buckets sum to …893, the count is …894; 0.9 × count lies past the second bucket's
    // cumulative 32.25846955039104, so histogram_quantile(0.9, …) interpolated in the third
    // bucket and answered 0.14865088937534016, its lower edge.
    const buckets = nativeToCumulative(
      [
        { lower: 0.028656376350145972, upper: 0.03125, count: 21.505646366927362 },
        { lower: 0.07432544468767006, upper: 0.0810524721656881, count: 10.752823183463681 },
        { lower: 0.14865088937534013, upper: 0.1621049443313762, count: 3.5842743944878936 },
      ],
      35.84274394487894,
    );
    expect((histogramQuantile(0.9, buckets) as { value: number }).value).toBeCloseTo(0.14865088937534016, 15);
  });
});

describe("native histograms with negative buckets or only a zero bucket, as Prometheus 2.42 reads them", () => {
  // The query API's answer for rate() of fixture_signed_latency_seconds{shape="signed"} (zero
  // bucket ±1 ms; per tick −0.2 s ×1, −0.05 s ×3, 0 ×1, 0.03 s ×3, 0.6 s ×2), counts per tick.
  const signed = nativeToCumulative(
    [
      { lower: -0.2102241038134286, upper: -0.1927763531759926, count: 1 },
      { lower: -0.05255602595335715, upper: -0.04819408829399815, count: 3 },
      { lower: -0.001, upper: 0.001, count: 1 },
      { lower: 0.028656376350145972, upper: 0.03125, count: 3 },
      { lower: 0.5946035575013605, upper: 0.6484197773255048, count: 2 },
    ],
    10,
  );
  const zeroOnly = nativeToCumulative([{ lower: -0.001, upper: 0.001, count: 4 }], 4);
  const value = (q: number, buckets: Bucket[]) => (histogramQuantile(q, buckets) as { value: number }).value;

  it.each([
    // rank 1 of 10 is the end of the first negative bucket
    [0.1, -0.1927763531759926],
    // rank 2.5: 1.5 of 3 into (−0.05256, −0.04819]: Prometheus answered −0.05037505712367765
    [0.25, -0.05255602595335715 + (0.05255602595335715 - 0.04819408829399815) / 2],
    // rank 5: the end of the zero bucket, which spans [−1 ms, 1 ms] (buckets on both sides)
    [0.5, 0.001],
    // rank 7.5: 3.5 of … the 0.03 s bucket holds 3 (ranks 5–8): 2.5 of 3 into it
    [0.75, 0.028656376350145972 + ((0.03125 - 0.028656376350145972) * 2.5) / 3],
  ])("signed: p%s = %s", (q, expected) => {
    expect(value(q, signed)).toBeCloseTo(expected, 12);
  });

  it("only a zero bucket: interpolated across [−1 ms, 1 ms], p25 = −0.5 ms (Prometheus: −0.0005)", () => {
    expect(value(0.25, zeroOnly)).toBeCloseTo(-0.0005, 15);
    expect(value(0.5, zeroOnly)).toBeCloseTo(0, 15);
    expect(value(0.95, zeroOnly)).toBeCloseTo(0.0009, 15);
  });

  it("a zero bucket below positive buckets only counts from 0; above negative ones only, up to 0", () => {
    const positive = nativeToCumulative(
      [
        { lower: -0.001, upper: 0.001, count: 2 },
        { lower: 0.5, upper: 0.6, count: 2 },
      ],
      4,
    );
    expect(value(0.25, positive)).toBeCloseTo(0.0005, 15);
    const negative = nativeToCumulative(
      [
        { lower: -0.06, upper: -0.05, count: 2 },
        { lower: -0.001, upper: 0.001, count: 2 },
      ],
      4,
    );
    expect(value(0.75, negative)).toBeCloseTo(-0.0005, 15);
    expect(adjustZeroBucket([{ lower: -0.001, upper: 0.001, count: 1 }])).toEqual([
      { lower: -0.001, upper: 0.001, count: 1 },
    ]);
  });

  it("an SLO's good share is histogram_fraction(0, t), as the recording rule counts it", () => {
    // Prometheus: histogram_fraction(0, 0.04, …) = 0.35 (4.5 of 10 ranks lie at or below 0),
    // (0, 0.0005) = 0.025, (0, 0.7) = 0.55; on the zero bucket alone (0, 0.7) = 0.5.
    expect(goodAndTotal(signed, 0.04, "native")).toEqual({ good: expect.closeTo(3.5, 12), total: 10 });
    expect(goodAndTotal(signed, 0.0005, "native").good).toBeCloseTo(0.25, 12);
    expect(goodAndTotal(signed, 0.7, "native").good).toBeCloseTo(5.5, 12);
    expect(goodAndTotal(zeroOnly, 0.7, "native")).toEqual({ good: 2, total: 4 });
    // A classic histogram's good count is its bucket at the bound: every observation at or under it.
    expect(goodAndTotal(signed, 0.7).good).toBe(10);
  });
});

describe("bucket bounds against the unit they are read in", () => {
  const PROMETHEUS_DEFAULT = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  const VLLM_E2E = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];
  const SPANMETRICS_MS = [2, 4, 6, 8, 10, 50, 100, 200, 400, 800, 1000, 1400, 2000, 5000, 10000, 15000];
  it.each([
    // bounds, read in, suggested (null: plausible as read)
    ["Prometheus's defaults in s", PROMETHEUS_DEFAULT, "seconds", null],
    ["vLLM's end-to-end buckets, 0.3 s … 2 h", VLLM_E2E, "seconds", null],
    ["spanmetrics' ms buckets as ms", SPANMETRICS_MS, "milliseconds", null],
    [
      "an LLM stage in ms read as seconds (5 … 10000)",
      PROMETHEUS_DEFAULT.map((b) => b * 1000),
      "seconds",
      "milliseconds",
    ],
    ["spanmetrics' ms buckets read as seconds", SPANMETRICS_MS, "seconds", "milliseconds"],
    ["seconds read as milliseconds (0.005 … 10)", PROMETHEUS_DEFAULT, "milliseconds", "seconds"],
    ["seconds read as milliseconds (0.05 … 1)", [0.05, 0.1, 0.2, 0.5, 0.7, 1], "milliseconds", "seconds"],
    ["microseconds read as seconds", PROMETHEUS_DEFAULT.map((b) => b * 1e6), "seconds", "microseconds"],
    ["nanoseconds read as seconds (Go durations)", PROMETHEUS_DEFAULT.map((b) => b * 1e9), "seconds", "nanoseconds"],
    ["microseconds read as microseconds", PROMETHEUS_DEFAULT.map((b) => b * 1e6), "microseconds", null],
  ] as const)("%s → %s", (_name, bounds, unit, suggested) => {
    const check = checkUnit(bounds, unit);
    expect(check?.suggestedUnit ?? null).toBe(suggested);
    if (suggested) expect(check!.message).toContain(`look like ${suggested}, not ${unit}`);
  });

  it("says which bounds and what they mean as read", () => {
    expect(checkUnit([5, 10, 25, 10000], "seconds")?.message).toBe(
      "The bucket bounds (5 … 10000) look like milliseconds, not seconds: read as seconds they put the smallest bucket at 5 s and the largest at 10000 s.",
    );
  });

  it("cannot tell from fewer than two positive bounds", () => {
    expect(checkUnit([], "seconds")).toBeNull();
    expect(checkUnit([5000, Number.POSITIVE_INFINITY], "seconds")).toBeNull();
    expect(checkUnit([-0.001, 0.001], "seconds")).toBeNull();
  });
});
