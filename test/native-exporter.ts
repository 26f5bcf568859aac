import { createServer, type Server } from "node:http";
import protobuf from "protobufjs";
import { FIXTURE_COMPONENTS, MIGRATING_METRIC } from "./fixture-exporter";

// An exporter of Prometheus native histograms, in the protobuf exposition format Prometheus
// negotiates when started with --enable-feature=native-histograms (varint-delimited
// io.prometheus.client.MetricFamily messages). prom-client cannot emit native histograms, so the
// messages are encoded here with protobufjs from the fields of Prometheus's own metrics.proto.
// Every tick observes the same multiset of values, so every quantile and fraction is known.

const PROTO = `
syntax = "proto2";
package io.prometheus.client;
message LabelPair { optional string name = 1; optional string value = 2; }
message BucketSpan { optional sint32 offset = 1; optional uint32 length = 2; }
message Histogram {
  optional uint64 sample_count = 1;
  optional double sample_sum = 2;
  optional sint32 schema = 5;
  optional double zero_threshold = 6;
  optional uint64 zero_count = 7;
  repeated BucketSpan negative_span = 9;
  repeated sint64 negative_delta = 10;
  repeated BucketSpan positive_span = 12;
  repeated sint64 positive_delta = 13;
}
message Metric { repeated LabelPair label = 1; optional Histogram histogram = 7; }
message MetricFamily {
  optional string name = 1;
  optional string help = 2;
  optional int32 type = 3;
  repeated Metric metric = 4;
}
`;

const HISTOGRAM_TYPE = 4;
export const NATIVE_CONTENT_TYPE =
  "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited";
/** Schema 3: each bucket is 2^(1/8) ≈ 1.09 times as wide as the one before. */
export const NATIVE_SCHEMA = 3;
const ZERO_THRESHOLD = 2.938735877055719e-39;

/** The bucket index of a positive value: bucket i holds (base^(i−1), base^i]. */
export function nativeBucketIndex(value: number, schema = NATIVE_SCHEMA): number {
  const base = 2 ** (2 ** -schema);
  let index = Math.ceil(Math.log(value) / Math.log(base));
  // Guard against float error at exact bucket bounds.
  if (base ** (index - 1) >= value) index--;
  if (base ** index < value) index++;
  return index;
}

type NativeSeries = {
  labels: Record<string, string>;
  positive: Map<number, number>;
  negative: Map<number, number>;
  zero: number;
  count: number;
  sum: number;
};

/** Spans and deltas of one side's buckets, as the exposition format encodes them. */
function encodeBuckets(buckets: Map<number, number>) {
  const indexes = [...buckets.keys()].sort((a, b) => a - b);
  const spans: { offset: number; length: number }[] = [];
  const deltas: number[] = [];
  let previousIndex: number | null = null;
  let previousCount = 0;
  for (const index of indexes) {
    if (previousIndex !== null && index === previousIndex + 1) spans[spans.length - 1]!.length++;
    else spans.push({ offset: previousIndex === null ? index : index - previousIndex - 1, length: 1 });
    const bucketCount = buckets.get(index)!;
    deltas.push(bucketCount - previousCount);
    previousCount = bucketCount;
    previousIndex = index;
  }
  return { spans, deltas };
}

class NativeHistogram {
  private readonly series = new Map<string, NativeSeries>();
  constructor(
    readonly name: string,
    readonly help: string,
    /** Observations with |v| ≤ this go to the zero bucket [−z, z]. */
    readonly zeroThreshold = ZERO_THRESHOLD,
  ) {}

  observe(labels: Record<string, string>, value: number, times = 1) {
    const key = JSON.stringify(labels);
    const entry = this.series.get(key) ?? {
      labels,
      positive: new Map(),
      negative: new Map(),
      zero: 0,
      count: 0,
      sum: 0,
    };
    if (Math.abs(value) <= this.zeroThreshold) entry.zero += times;
    else {
      // A negative value v is in the negative bucket of |v|: [−base^i, −base^(i−1)).
      const side = value > 0 ? entry.positive : entry.negative;
      const index = nativeBucketIndex(Math.abs(value));
      side.set(index, (side.get(index) ?? 0) + times);
    }
    entry.count += times;
    entry.sum += value * times;
    this.series.set(key, entry);
  }

  toFamily() {
    return {
      name: this.name,
      help: this.help,
      type: HISTOGRAM_TYPE,
      metric: [...this.series.values()].map(({ labels, positive, negative, zero, count, sum }) => {
        const pos = encodeBuckets(positive);
        const neg = encodeBuckets(negative);
        return {
          label: Object.entries(labels).map(([name, value]) => ({ name, value })),
          histogram: {
            sample_count: count,
            sample_sum: sum,
            schema: NATIVE_SCHEMA,
            zero_threshold: this.zeroThreshold,
            zero_count: zero,
            negative_span: neg.spans,
            negative_delta: neg.deltas,
            positive_span: pos.spans,
            positive_delta: pos.deltas,
          },
        };
      }),
    };
  }
}

/** Per tick, per component: [value in seconds, observations]: the classic fixture's known shapes. */
export const NATIVE_COMPONENTS = { fast: FIXTURE_COMPONENTS.fast!, slow: FIXTURE_COMPONENTS.slow! };

/**
 * A native histogram whose zero bucket is ±1 ms (fixture_signed_latency_seconds), per tick and
 * `shape` label: "signed" has negative observations (clock skew), zero-bucket ones and positive
 * ones; "zero" has only zero-bucket observations. Prometheus interpolates inside the zero bucket
 * [−1 ms, 1 ms] unless the histogram has buckets on one side only.
 */
export const SIGNED_ZERO_THRESHOLD = 0.001;
export const SIGNED_SHAPES: Record<string, [number, number][]> = {
  signed: [
    [-0.2, 1],
    [-0.05, 3],
    [0, 1],
    [0.03, 3],
    [0.6, 2],
  ],
  zero: [
    [0, 3],
    [0.0005, 1],
  ],
};

/** A native histogram in milliseconds whose name states no unit: read as seconds unless told. */
export const UNITLESS_MS_NATIVE_METRIC = "fixture_llm_rerank_latency";

export type NativeExporter = { target: string; stop: () => Promise<void> };

export async function startNativeExporter(tickMs = 250): Promise<NativeExporter> {
  const root = protobuf.parse(PROTO, { keepCase: true }).root;
  const MetricFamily = root.lookupType("io.prometheus.client.MetricFamily");
  const seconds = new NativeHistogram("fixture_native_latency_seconds", "Fixture stage latency, native histogram");
  const millis = new NativeHistogram(
    "fixture_native_duration_milliseconds",
    "Fixture stage latency in milliseconds, native histogram",
  );
  const signed = new NativeHistogram(
    "fixture_signed_latency_seconds",
    "Fixture latency with negative and zero-bucket observations, native histogram",
    SIGNED_ZERO_THRESHOLD,
  );
  const migrating = new NativeHistogram(MIGRATING_METRIC, "Fixture latency, classic on one target and native on another");
  const unitless = new NativeHistogram(UNITLESS_MS_NATIVE_METRIC, "Fixture LLM rerank latency");
  const tick = () => {
    for (const [value, times] of FIXTURE_COMPONENTS.slow!) {
      migrating.observe({ exposition: "native" }, value, times);
      unitless.observe({}, value * 1000, times);
    }
    for (const [shape, values] of Object.entries(SIGNED_SHAPES))
      for (const [value, times] of values) signed.observe({ shape }, value, times);
    for (const [component, shape] of Object.entries(NATIVE_COMPONENTS))
      for (const [value, times] of shape) {
        seconds.observe({ component }, value, times);
        millis.observe({ component }, value * 1000, times);
      }
  };
  tick();
  const timer = setInterval(tick, tickMs);
  const server: Server = createServer((_req, res) => {
    const body = Buffer.concat(
      [seconds, millis, signed, migrating, unitless].map((h) => {
        const message = MetricFamily.fromObject(h.toFamily());
        return MetricFamily.encodeDelimited(message).finish();
      }),
    );
    res.setHeader("content-type", NATIVE_CONTENT_TYPE);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    target: `127.0.0.1:${port}`,
    stop: async () => {
      clearInterval(timer);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
