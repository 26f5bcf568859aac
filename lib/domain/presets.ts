import { unitFromName, type HistogramUnit } from "./units";

// Where common LLM servers and tracing pipelines put their latency histograms, under the
// exporters' own names: vLLM (V1, and V0 names still seen on older servers), SGLang, NVIDIA
// Dynamo's frontend, llm-d's endpoint picker (Gateway API inference extension), Hugging Face TGI,
// OpenTelemetry GenAI, the OpenTelemetry Collector's spanmetrics connector and Tempo's
// metrics-generator.

export type PresetId =
  | "generic"
  | "vllm"
  | "sglang"
  | "dynamo"
  | "llm-d"
  | "tgi"
  | "otel-genai"
  | "otel-spanmetrics"
  | "tempo-spanmetrics"
  | "custom";

/** What a histogram measures, so discovery can say where it fits in a budget. */
export type MetricRole = "ttft" | "itl" | "e2e" | "queue" | "prefill" | "decode" | "inference" | "stage" | "span";

export type PresetMetric = {
  metric: string;
  label: string;
  role: MetricRole;
  /** Removed upstream: still read on servers that have it, not offered for new budgets. */
  legacy?: boolean;
};

export type Preset = {
  id: PresetId;
  label: string;
  /** Histograms a component can point at, base names without `_bucket`. */
  metrics: PresetMetric[];
  /** The label that names the component in a single shared histogram, when there is one. */
  componentLabel?: string;
  /** Labels worth offering as matchers. */
  labels: string[];
  /** Where failed requests are counted, for the error rate (spanmetrics: calls with an error status). */
  errors?: { metric: string; matchers: Record<string, string> };
};

export const GENERIC_STAGE_METRIC = "llm_stage_duration_seconds";
export const GENERIC_E2E_METRIC = "llm_request_ttft_seconds";

/** The OTel Collector spanmetrics connector's histogram: milliseconds by default, seconds under its unit feature gate. */
export const SPANMETRICS_MS = "traces_span_metrics_duration_milliseconds";
export const SPANMETRICS_S = "traces_span_metrics_duration_seconds";

export const PRESETS: Record<PresetId, Preset> = {
  generic: {
    id: "generic",
    label: "Generic stage histogram",
    metrics: [
      { metric: GENERIC_STAGE_METRIC, label: "Stage duration (label stage)", role: "stage" },
      { metric: GENERIC_E2E_METRIC, label: "End-to-end time to first token", role: "ttft" },
    ],
    componentLabel: "stage",
    labels: ["service", "stage", "variant"],
  },
  vllm: {
    id: "vllm",
    label: "vLLM",
    metrics: [
      { metric: "vllm:time_to_first_token_seconds", label: "Time to first token", role: "ttft" },
      { metric: "vllm:inter_token_latency_seconds", label: "Inter-token latency", role: "itl" },
      {
        metric: "vllm:request_time_per_output_token_seconds",
        label: "Time per output token, per request",
        role: "itl",
      },
      {
        metric: "vllm:time_per_output_token_seconds",
        label: "Time per output token (removed in 2026-01; older vLLM)",
        role: "itl",
        legacy: true,
      },
      { metric: "vllm:e2e_request_latency_seconds", label: "End-to-end request latency", role: "e2e" },
      { metric: "vllm:request_queue_time_seconds", label: "Queue time", role: "queue" },
      { metric: "vllm:request_prefill_time_seconds", label: "Prefill time", role: "prefill" },
      { metric: "vllm:request_decode_time_seconds", label: "Decode time", role: "decode" },
      { metric: "vllm:request_inference_time_seconds", label: "Inference time", role: "inference" },
    ],
    labels: ["model_name", "engine"],
  },
  sglang: {
    id: "sglang",
    label: "SGLang",
    metrics: [
      { metric: "sglang:time_to_first_token_seconds", label: "Time to first token", role: "ttft" },
      { metric: "sglang:inter_token_latency_seconds", label: "Inter-token latency", role: "itl" },
      {
        metric: "sglang:time_per_output_token_seconds",
        label: "Time per output token (older SGLang)",
        role: "itl",
        legacy: true,
      },
      { metric: "sglang:e2e_request_latency_seconds", label: "End-to-end request latency", role: "e2e" },
      { metric: "sglang:queue_time_seconds", label: "Queue time", role: "queue" },
    ],
    labels: ["model_name"],
  },
  dynamo: {
    id: "dynamo",
    label: "NVIDIA Dynamo (frontend)",
    metrics: [
      { metric: "dynamo_frontend_time_to_first_token_seconds", label: "Time to first token", role: "ttft" },
      { metric: "dynamo_frontend_inter_token_latency_seconds", label: "Inter-token latency", role: "itl" },
      { metric: "dynamo_frontend_request_duration_seconds", label: "Request duration", role: "e2e" },
    ],
    labels: ["model", "dynamo_namespace"],
  },
  "llm-d": {
    id: "llm-d",
    label: "llm-d endpoint picker",
    metrics: [
      { metric: "inference_objective_request_ttft_seconds", label: "Time to first token", role: "ttft" },
      { metric: "inference_objective_request_duration_seconds", label: "Request duration", role: "e2e" },
      {
        metric: "inference_objective_normalized_time_per_output_token_seconds",
        label: "Normalised time per output token",
        role: "itl",
      },
      {
        metric: "inference_model_request_duration_seconds",
        label: "Request duration (older EPP)",
        role: "e2e",
        legacy: true,
      },
      { metric: "inference_extension_scheduler_e2e_duration_seconds", label: "Scheduling time", role: "stage" },
    ],
    labels: ["model_name", "target_model_name"],
  },
  tgi: {
    id: "tgi",
    label: "Hugging Face TGI",
    metrics: [
      { metric: "tgi_request_duration", label: "Request duration", role: "e2e" },
      { metric: "tgi_request_queue_duration", label: "Queue duration", role: "queue" },
      { metric: "tgi_request_inference_duration", label: "Inference duration", role: "inference" },
      { metric: "tgi_request_mean_time_per_token_duration", label: "Mean time per token", role: "itl" },
      { metric: "tgi_batch_inference_duration", label: "Batch inference (label method)", role: "inference" },
    ],
    labels: ["method"],
  },
  "otel-genai": {
    id: "otel-genai",
    label: "OpenTelemetry GenAI",
    metrics: [
      { metric: "gen_ai_server_time_to_first_token_seconds", label: "Server time to first token", role: "ttft" },
      { metric: "gen_ai_server_time_per_output_token_seconds", label: "Server time per output token", role: "itl" },
      { metric: "gen_ai_server_request_duration_seconds", label: "Server request duration", role: "e2e" },
      { metric: "gen_ai_client_operation_duration_seconds", label: "Client operation duration", role: "e2e" },
    ],
    labels: ["gen_ai_request_model", "gen_ai_operation_name", "gen_ai_system"],
  },
  "otel-spanmetrics": {
    id: "otel-spanmetrics",
    label: "OpenTelemetry spanmetrics",
    metrics: [
      { metric: SPANMETRICS_MS, label: "Span duration, milliseconds (label span_name)", role: "span" },
      { metric: SPANMETRICS_S, label: "Span duration, seconds (label span_name)", role: "span" },
    ],
    componentLabel: "span_name",
    labels: ["service_name", "span_name", "span_kind", "status_code"],
    errors: { metric: "traces_span_metrics_calls_total", matchers: { status_code: "STATUS_CODE_ERROR" } },
  },
  "tempo-spanmetrics": {
    id: "tempo-spanmetrics",
    label: "Tempo span metrics",
    metrics: [{ metric: "traces_spanmetrics_latency", label: "Span latency, seconds (label span_name)", role: "span" }],
    componentLabel: "span_name",
    labels: ["service", "span_name", "span_kind", "status_code"],
    errors: { metric: "traces_spanmetrics_calls_total", matchers: { status_code: "STATUS_CODE_ERROR" } },
  },
  custom: { id: "custom", label: "Custom histogram", metrics: [], labels: [] },
};

export const PRESET_IDS = Object.keys(PRESETS) as PresetId[];

const BY_METRIC = new Map(
  PRESET_IDS.flatMap((id) => PRESETS[id].metrics.map((m) => [m.metric, { preset: id, ...m }] as const)),
);

/** The preset that knows a histogram by name, with its role; null for a name no preset knows. */
export function presetOf(metric: string): (PresetMetric & { preset: PresetId }) | null {
  return BY_METRIC.get(metric) ?? null;
}

/**
 * The unit a histogram is in when its name does not say (Tempo's `traces_spanmetrics_latency`
 * and TGI's `*_duration` are seconds), else what the name says.
 */
export function presetUnit(metric: string): HistogramUnit | null {
  return unitFromName(metric) ?? (presetOf(metric) ? "seconds" : null);
}

/** A generic-preset source for one component of a service's shared stage histogram. */
export function genericStageSource(service: string, stage: string) {
  return { preset: "generic" as const, metric: GENERIC_STAGE_METRIC, matchers: { service, stage } };
}
