import "server-only";
import { KPI_HISTOGRAMS, type KpiHistogram, type ScalarKpi } from "@/lib/domain/kpis";
import { secondsExpr, unitOf } from "@/lib/domain/units";
import { assertDuration, assertLabelName, selector, stringLiteral } from "./promql";

// The KPIs as PromQL over the service's engine selector (the end-to-end histogram's matchers).
// Each KPI is one expression with fallbacks (`A or on() B`: B only when A has no series at all),
// so the same text answers an instant query over the window and a range query for a sparkline.

export const KPI_LABEL = "lb_kpi";

type Matchers = Record<string, string>;

const rate = (metric: string, m: Matchers, w: string, extra: Matchers = {}) =>
  `sum(rate(${selector(metric, { ...m, ...extra })}[${assertDuration(w)}]))`;

const firstOf = (...parts: string[]) => parts.map((p) => `(${p})`).join(" or on() ");

/** histogram_quantile in seconds over the first candidate histogram with data. */
export function quantileExpr(kind: KpiHistogram, m: Matchers, q: number, w: string): string {
  const chains = KPI_HISTOGRAMS[kind].map((metric) => {
    const expr = `histogram_quantile(${q}, sum by (le) (rate(${selector(`${metric}_bucket`, m)}[${assertDuration(w)}])))`;
    return secondsExpr(expr, unitOf({ metric }));
  });
  return firstOf(...chains);
}

/** The SLO's good and total request rates, as built by ./sli.ts for the service's first SLO. */
export type SloRates = { good: (window: string) => string; total: (window: string) => string };

export function scalarExprs(m: Matchers, w: string, slo: SloRates | null): Partial<Record<ScalarKpi, string>> {
  const requests = firstOf(rate("llm_requests_total", m, w), rate("vllm:request_success_total", m, w));
  // vLLM counts every finished request in request_success_total by finished_reason: stop and
  // length are successes, abort and error are failures.
  const vllmFailures = ["abort", "error"]
    .map(
      (reason) =>
        `rate(${selector("vllm:request_success_total", { ...m, finished_reason: reason })}[${assertDuration(w)}])`,
    )
    .join(" or ");
  const failures = firstOf(
    rate("llm_request_errors_total", m, w),
    `sum(${vllmFailures})`,
    `0 * ${rate("vllm:request_success_total", m, w)}`,
  );
  const tokens = firstOf(
    rate("vllm:generation_tokens_total", m, w),
    rate("sglang:generation_tokens_total", m, w),
    rate("dynamo_frontend_output_tokens_total", m, w),
    rate("llm_tokens_total", m, w, { kind: "completion" }),
  );
  const attainment = slo ? `(${slo.good(w)}) / (${slo.total(w)})` : null;
  return {
    requestRps: requests,
    ...(slo && {
      throughputRps: slo.good(w),
      sloAttainment: attainment!,
      tokensPerSecond: `(${tokens}) * ${attainment}`,
    }),
    errorRate: `(${failures}) / (${requests})`,
    timeoutRate: `${rate("llm_request_errors_total", m, w, { reason: "timeout" })} / (${requests})`,
    costPerSuccessfulRequestUsd: `${rate("llm_cost_dollars_total", m, w)} / ((${requests}) - (${failures}))`,
    prefixCacheHitRate: `${rate("vllm:prefix_cache_hits_total", m, w)} / ${rate("vllm:prefix_cache_queries_total", m, w)}`,
    responseCacheHitRate: `${rate("llm_response_cache_lookups_total", m, w, { result: "hit" })} / ${rate("llm_response_cache_lookups_total", m, w)}`,
    speculativeAcceptanceRate: `${rate("vllm:spec_decode_num_accepted_tokens_total", m, w)} / ${rate("vllm:spec_decode_num_draft_tokens_total", m, w)}`,
  };
}

/** Several expressions in one query, each tagged with `lb_kpi="<name>"`. */
export function taggedExprs(exprs: Record<string, string>): string {
  const label = stringLiteral(assertLabelName(KPI_LABEL));
  return Object.entries(exprs)
    .map(([name, expr]) => `label_replace(${expr}, ${label}, ${stringLiteral(name)}, "", "")`)
    .join(" or ");
}

/** The live operating point's inputs: arrival rate, service time, busy and waiting requests, slots. */
export function capacityExprs(m: Matchers, arrivals: string, w: string): Record<string, string> {
  const inference = (suffix: string) => rate(`vllm:request_inference_time_seconds_${suffix}`, m, w);
  const gauge = (metric: string) => `sum(avg_over_time(${selector(metric, m)}[${assertDuration(w)}]))`;
  return {
    arrivalRps: arrivals,
    serviceTimeS: `${inference("sum")} / ${inference("count")}`,
    running: gauge("vllm:num_requests_running"),
    waiting: gauge("vllm:num_requests_waiting"),
    slots: `max(max_over_time(${selector("llm_engine_slots", m)}[${assertDuration(w)}]))`,
  };
}
