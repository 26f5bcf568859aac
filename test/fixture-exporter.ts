import { createServer, type Server } from "node:http";
import { Counter, Histogram, Registry } from "prom-client";

// An exporter whose histograms have known shapes: every tick it observes the same multiset of
// values, so bucket counts grow in fixed proportions and every percentile and ratio is known
// by hand, over any window.

export const FIXTURE_BUCKETS = [0.05, 0.1, 0.2, 0.5, 0.7, 1];
export const VLLM_LIKE_BUCKETS = [0.5, 0.75, 1];

/** value → observations per tick, per component label value. */
export const FIXTURE_COMPONENTS: Record<string, [number, number][]> = {
  fast: [
    [0.03, 6],
    [0.08, 3],
    [0.15, 1],
  ],
  slow: [
    [0.3, 5],
    [0.6, 3],
    [0.8, 1],
    [2.0, 1],
  ],
  // Hostile label values: a builder that does not escape them matches other series, or errors.
  'a"} or vector(1) #': [[0.04, 1]],
  "back\\slash": [[0.09, 1]],
  "line\nbreak": [[0.3, 1]],
  ".*": [[0.6, 1]],
};

/** TTFT with a bucket at 0.7: 98 of every 100 requests are at or under 700 ms. */
export const FIXTURE_TTFT: [number, number][] = [
  [0.4, 90],
  [0.65, 8],
  [0.9, 2],
];

/** vLLM-like buckets (0.5, 0.75, 1): 80 under 0.5 s, 10 in (0.5, 0.75], 10 in (0.75, 1]. */
export const FIXTURE_VLLM_TTFT: [number, number][] = [
  [0.4, 80],
  [0.6, 10],
  [0.9, 10],
];

/** Per variant, for experiments read from Prometheus: control is slower and dearer. */
export const FIXTURE_VARIANTS: Record<string, { ttft: [number, number][]; tokens: number; costUsd: number }> = {
  control: {
    ttft: [
      [0.4, 90],
      [0.65, 10],
    ],
    tokens: 1000,
    costUsd: 0.03,
  },
  treatment: {
    ttft: [
      [0.4, 95],
      [0.65, 5],
    ],
    tokens: 1000,
    costUsd: 0.025,
  },
};

/**
 * Spans as the OTel Collector's spanmetrics connector exports them (milliseconds, label span_name):
 * the same shapes as FIXTURE_COMPONENTS in ms, on the same bounds in ms, so every percentile is
 * 1000 × the seconds fixture's.
 */
export const SPANMETRICS_BUCKETS_MS = FIXTURE_BUCKETS.map((b) => b * 1000);
export const FIXTURE_SPANS: Record<string, [number, number][]> = {
  retrieve: FIXTURE_COMPONENTS.fast!.map(([v, n]) => [v * 1000, n]),
  generate: FIXTURE_COMPONENTS.slow!.map(([v, n]) => [v * 1000, n]),
  // Two parallel spans each read as uniform on (0, 100] ms (one in (0, 50], one in (50, 100]): their
  // max's p50 is 100·√0.5 = 70.71 ms.
  "fanout-a": [
    [25, 1],
    [75, 1],
  ],
  "fanout-b": [
    [25, 1],
    [75, 1],
  ],
};

/** vLLM's finished requests per tick by finished_reason: 3 of 18 failed (1 abort, 2 error). */
export const FIXTURE_VLLM_FINISHED: Record<string, number> = { stop: 12, length: 3, abort: 1, error: 2 };
export const FIXTURE_VLLM_MODEL = "fixture-kpi-model";

/**
 * Each engine's TTFT (or end-to-end) histogram under its own name and labels, with the vLLM-like
 * shape, so the presets and KPIs are checked against real series: name → labels.
 */
export const FIXTURE_ENGINES: Record<string, { metric: string; labels: Record<string, string> }> = {
  sglang: { metric: "sglang:time_to_first_token_seconds", labels: { model_name: "fixture-sglang" } },
  dynamo: { metric: "dynamo_frontend_time_to_first_token_seconds", labels: { model: "fixture-dynamo" } },
  "llm-d": {
    metric: "inference_objective_request_ttft_seconds",
    labels: { model_name: "fixture-llmd", target_model_name: "fixture-llmd-v2" },
  },
  "tempo-spanmetrics": {
    metric: "traces_spanmetrics_latency",
    labels: { service: "fixture-tempo", span_name: "generate" },
  },
};

/**
 * Histograms whose bounds do not fit their unit: an LLM stage in milliseconds whose name states no
 * unit (bounds 5 … 10000, read as seconds by default), and a `_milliseconds` histogram whose
 * bounds are in seconds (0.05 … 1). Both observe FIXTURE_COMPONENTS.slow in their bounds' unit.
 */
export const UNITLESS_MS_METRIC = "fixture_llm_stage_latency";
export const UNITLESS_MS_BUCKETS = [5, 10, 25, 50, 100, 250, 500, 700, 1000, 2500, 5000, 10000];
export const MISLABELLED_MS_METRIC = "fixture_llm_generate_duration_milliseconds";

/**
 * A histogram in the middle of a move from classic to native: this exporter writes it classic
 * (`exposition="classic"`), the native exporter native (`exposition="native"`), one name for both.
 * Both observe FIXTURE_COMPONENTS.slow.
 */
export const MIGRATING_METRIC = "fixture_migrating_latency_seconds";

export type FixtureExporter = { target: string; stop: () => Promise<void> };

export async function startFixtureExporter(tickMs = 250): Promise<FixtureExporter> {
  const registry = new Registry();
  const stage = new Histogram({
    name: "fixture_latency_seconds",
    help: "Fixture stage latency",
    labelNames: ["component"],
    buckets: FIXTURE_BUCKETS,
    registers: [registry],
  });
  const ttft = new Histogram({
    name: "fixture_ttft_seconds",
    help: "Fixture TTFT",
    buckets: FIXTURE_BUCKETS,
    registers: [registry],
  });
  const vllm = new Histogram({
    name: "fixture_vllm_ttft_seconds",
    help: "Fixture TTFT with vLLM-like buckets",
    buckets: VLLM_LIKE_BUCKETS,
    registers: [registry],
  });

  const observe = (h: { observe: (v: number) => void }, shape: [number, number][]) => {
    for (const [value, times] of shape) for (let i = 0; i < times; i++) h.observe(value);
  };
  const variantTtft = new Histogram({
    name: "fixture_variant_ttft_seconds",
    help: "Fixture TTFT per variant",
    labelNames: ["variant"],
    buckets: FIXTURE_BUCKETS,
    registers: [registry],
  });
  const tokens = new Counter({
    name: "fixture_tokens_total",
    help: "Fixture tokens",
    labelNames: ["variant"],
    registers: [registry],
  });
  const cost = new Counter({
    name: "fixture_cost_dollars_total",
    help: "Fixture cost",
    labelNames: ["variant"],
    registers: [registry],
  });
  const spans = new Histogram({
    name: "traces_span_metrics_duration_milliseconds",
    help: "Duration as recorded by the spanmetrics connector (fixture)",
    labelNames: ["service_name", "span_name", "span_kind", "status_code"],
    buckets: SPANMETRICS_BUCKETS_MS,
    registers: [registry],
  });
  const vllmFinished = new Counter({
    name: "vllm:request_success_total",
    help: "Finished requests (fixture)",
    labelNames: ["model_name", "finished_reason"],
    registers: [registry],
  });
  const vllmE2e = new Histogram({
    name: "vllm:e2e_request_latency_seconds",
    help: "End-to-end request latency (fixture)",
    labelNames: ["model_name"],
    buckets: VLLM_LIKE_BUCKETS,
    registers: [registry],
  });
  const engines = Object.values(FIXTURE_ENGINES).map(
    ({ metric, labels }) =>
      [
        new Histogram({
          name: metric,
          help: `${metric} (fixture)`,
          labelNames: Object.keys(labels),
          buckets: VLLM_LIKE_BUCKETS,
          registers: [registry],
        }).labels(labels),
      ] as const,
  );
  const unitless = new Histogram({
    name: UNITLESS_MS_METRIC,
    help: "Fixture LLM stage latency",
    buckets: UNITLESS_MS_BUCKETS,
    registers: [registry],
  });
  const mislabelled = new Histogram({
    name: MISLABELLED_MS_METRIC,
    help: "Fixture generate duration",
    buckets: FIXTURE_BUCKETS,
    registers: [registry],
  });
  const migrating = new Histogram({
    name: MIGRATING_METRIC,
    help: "Fixture latency, classic on one target and native on another",
    labelNames: ["exposition"],
    buckets: FIXTURE_BUCKETS,
    registers: [registry],
  });
  const tick = () => {
    observe(migrating.labels({ exposition: "classic" }), FIXTURE_COMPONENTS.slow!);
    observe(
      unitless,
      FIXTURE_COMPONENTS.slow!.map(([v, n]) => [v * 1000, n]),
    );
    observe(mislabelled, FIXTURE_COMPONENTS.slow!);
    for (const [histogram] of engines) observe(histogram, FIXTURE_VLLM_TTFT);
    for (const [span_name, shape] of Object.entries(FIXTURE_SPANS))
      observe(
        spans.labels({
          service_name: "fixture-rag",
          span_name,
          span_kind: "SPAN_KIND_INTERNAL",
          status_code: "STATUS_CODE_UNSET",
        }),
        shape,
      );
    for (const [finished_reason, n] of Object.entries(FIXTURE_VLLM_FINISHED))
      vllmFinished.inc({ model_name: FIXTURE_VLLM_MODEL, finished_reason }, n);
    observe(vllmE2e.labels({ model_name: FIXTURE_VLLM_MODEL }), FIXTURE_VLLM_TTFT);
    for (const [variant, shape] of Object.entries(FIXTURE_VARIANTS)) {
      observe(variantTtft.labels({ variant }), shape.ttft);
      tokens.inc({ variant }, shape.tokens);
      cost.inc({ variant }, shape.costUsd);
    }
    for (const [component, shape] of Object.entries(FIXTURE_COMPONENTS)) observe(stage.labels({ component }), shape);
    observe(ttft, FIXTURE_TTFT);
    observe(vllm, FIXTURE_VLLM_TTFT);
  };
  tick();
  const timer = setInterval(tick, tickMs);

  const server: Server = createServer(async (_req, res) => {
    res.setHeader("content-type", registry.contentType);
    res.end(await registry.metrics());
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
