// Where common LLM servers put their latency histograms. Names are the exporters' own
// (vLLM, Hugging Face TGI, OpenTelemetry GenAI semantic conventions as Prometheus sees them).

export type PresetId = "generic" | "vllm" | "tgi" | "otel-genai" | "custom";

export type Preset = {
  id: PresetId;
  label: string;
  /** Histograms a component can point at, base names without `_bucket`. */
  metrics: { metric: string; label: string }[];
  /** The label that names the component in a single shared histogram, when there is one. */
  componentLabel?: string;
  /** Labels worth offering as matchers. */
  labels: string[];
};

export const GENERIC_STAGE_METRIC = "llm_stage_duration_seconds";
export const GENERIC_E2E_METRIC = "llm_request_ttft_seconds";

export const PRESETS: Record<PresetId, Preset> = {
  generic: {
    id: "generic",
    label: "Generic stage histogram",
    metrics: [
      { metric: GENERIC_STAGE_METRIC, label: "Stage duration (label stage)" },
      { metric: GENERIC_E2E_METRIC, label: "End-to-end time to first token" },
    ],
    componentLabel: "stage",
    labels: ["service", "stage", "variant"],
  },
  vllm: {
    id: "vllm",
    label: "vLLM",
    metrics: [
      { metric: "vllm:time_to_first_token_seconds", label: "Time to first token" },
      { metric: "vllm:inter_token_latency_seconds", label: "Inter-token latency" },
      { metric: "vllm:time_per_output_token_seconds", label: "Time per output token (older vLLM)" },
      { metric: "vllm:e2e_request_latency_seconds", label: "End-to-end request latency" },
      { metric: "vllm:request_queue_time_seconds", label: "Queue time" },
      { metric: "vllm:request_prefill_time_seconds", label: "Prefill time" },
      { metric: "vllm:request_decode_time_seconds", label: "Decode time" },
      { metric: "vllm:request_inference_time_seconds", label: "Inference time" },
    ],
    labels: ["model_name", "engine"],
  },
  tgi: {
    id: "tgi",
    label: "Hugging Face TGI",
    metrics: [
      { metric: "tgi_request_duration", label: "Request duration" },
      { metric: "tgi_request_queue_duration", label: "Queue duration" },
      { metric: "tgi_request_inference_duration", label: "Inference duration" },
      { metric: "tgi_request_mean_time_per_token_duration", label: "Mean time per token" },
      { metric: "tgi_batch_inference_duration", label: "Batch inference (label method)" },
    ],
    labels: ["method"],
  },
  "otel-genai": {
    id: "otel-genai",
    label: "OpenTelemetry GenAI",
    metrics: [
      { metric: "gen_ai_server_time_to_first_token_seconds", label: "Server time to first token" },
      { metric: "gen_ai_server_time_per_output_token_seconds", label: "Server time per output token" },
      { metric: "gen_ai_server_request_duration_seconds", label: "Server request duration" },
      { metric: "gen_ai_client_operation_duration_seconds", label: "Client operation duration" },
    ],
    labels: ["gen_ai_request_model", "gen_ai_operation_name", "gen_ai_system"],
  },
  custom: { id: "custom", label: "Custom histogram", metrics: [], labels: [] },
};

export const PRESET_IDS = Object.keys(PRESETS) as PresetId[];

/** A generic-preset source for one component of a service's shared stage histogram. */
export function genericStageSource(service: string, stage: string) {
  return { preset: "generic" as const, metric: GENERIC_STAGE_METRIC, matchers: { service, stage } };
}
