// The LLM service KPIs (time to first token, inter-token latency, end to end, goodput, error and
// timeout rates, SLO attainment, cost per successful request, cache hits, speculative acceptance)
// and where each is read from: the first of its metrics that has data, under the exporters' own
// names (vLLM, OpenTelemetry GenAI, TGI) or the generic names the demo uses. Unknown is null.

export const KPI_HISTOGRAMS = {
  ttft: [
    "vllm:time_to_first_token_seconds",
    "sglang:time_to_first_token_seconds",
    "dynamo_frontend_time_to_first_token_seconds",
    "inference_objective_request_ttft_seconds",
    "gen_ai_server_time_to_first_token_seconds",
    "llm_request_ttft_seconds",
  ],
  itl: [
    "vllm:inter_token_latency_seconds",
    "vllm:request_time_per_output_token_seconds",
    "vllm:time_per_output_token_seconds",
    "sglang:inter_token_latency_seconds",
    "sglang:time_per_output_token_seconds",
    "dynamo_frontend_inter_token_latency_seconds",
    "inference_objective_normalized_time_per_output_token_seconds",
    "gen_ai_server_time_per_output_token_seconds",
    "tgi_request_mean_time_per_token_duration",
    "llm_inter_token_latency_seconds",
  ],
  endToEnd: [
    "vllm:e2e_request_latency_seconds",
    "sglang:e2e_request_latency_seconds",
    "dynamo_frontend_request_duration_seconds",
    "inference_objective_request_duration_seconds",
    "gen_ai_server_request_duration_seconds",
    "tgi_request_duration",
    "llm_request_duration_seconds",
  ],
} as const;

export type KpiHistogram = keyof typeof KPI_HISTOGRAMS;

/** The counters and gauges behind the other KPIs, for the docs and the page's "reads" notes. */
export const KPI_COUNTERS = {
  requests: ["llm_requests_total", "vllm:request_success_total"],
  failures: ["llm_request_errors_total{reason}", 'vllm:request_success_total{finished_reason="abort"|"error"}'],
  tokens: [
    "vllm:generation_tokens_total",
    "sglang:generation_tokens_total",
    "dynamo_frontend_output_tokens_total",
    'llm_tokens_total{kind="completion"}',
  ],
  cost: ["llm_cost_dollars_total"],
  prefixCache: ["vllm:prefix_cache_hits_total", "vllm:prefix_cache_queries_total"],
  responseCache: ['llm_response_cache_lookups_total{result="hit"|"miss"}'],
  speculative: ["vllm:spec_decode_num_accepted_tokens_total", "vllm:spec_decode_num_draft_tokens_total"],
} as const;

export const SCALAR_KPIS = [
  "requestRps",
  "throughputRps",
  "tokensPerSecond",
  "errorRate",
  "timeoutRate",
  "sloAttainment",
  "costPerSuccessfulRequestUsd",
  "prefixCacheHitRate",
  "responseCacheHitRate",
  "speculativeAcceptanceRate",
] as const;

export type ScalarKpi = (typeof SCALAR_KPIS)[number];

export type Percentiles = {
  p50: number | null;
  p95: number | null;
  p99: number | null;
  /** Percentiles that fell in the +Inf bucket: the value is only "at least". */
  lowerBounds: ("p50" | "p95" | "p99")[];
  /** The metric it was read from, or null when none of the candidates has data. */
  metric: string | null;
};

/** A value that is not a number (0/0 on an idle window) is unknown, not zero. */
export function known(value: number | undefined): number | null {
  return value === undefined || !Number.isFinite(value) ? null : value;
}
