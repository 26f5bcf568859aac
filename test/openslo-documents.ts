// OpenSLO v1 SLO documents over a Prometheus histogram, as YAML text, for the import tests (unit,
// integration and end to end): say only what differs from a plain 28-day occurrences SLO.

export type OpenSloOptions = {
  service: string;
  name?: string;
  displayName?: string;
  good?: string;
  total?: string;
  timeWindow?: string;
  budgetingMethod?: string;
  objectives?: string;
  extra?: string;
};

export function openSloDocument(o: OpenSloOptions): string {
  return `apiVersion: openslo/v1
kind: SLO
metadata:
  name: ${o.name ?? "ttft-under-500"}
  displayName: ${o.displayName ?? o.name ?? "TTFT under 500 ms"}
spec:
  service: ${o.service}
  indicator:
    metadata: { name: ttft, displayName: TTFT }
    spec:
      ratioMetric:
        counter: true
        good: { metricSource: { type: Prometheus, spec: { query: '${o.good ?? 'sum(rate(llm_request_ttft_seconds_bucket{service="chat",le="0.5"}[5m]))'}' } } }
        total: { metricSource: { type: Prometheus, spec: { query: '${o.total ?? 'sum(rate(llm_request_ttft_seconds_count{service="chat"}[5m]))'}' } } }
  timeWindow: [${o.timeWindow ?? "{ duration: 28d, isRolling: true }"}]
  budgetingMethod: ${o.budgetingMethod ?? "Occurrences"}
  objectives: [${o.objectives ?? "{ target: 0.99 }"}]
${o.extra ?? ""}`;
}

/**
 * A Service document of about 1 MB: 70,000 annotations and then one key again, at line 70006.
 * Read in one pass it is refused in about a second; read quadratically it took minutes.
 */
export function bigOpenSloDocument(): string {
  const keys = Array.from({ length: 70_000 }, (_, i) => `    k${i}: v`).join("\n");
  return `apiVersion: openslo/v1\nkind: Service\nmetadata:\n  name: big\n  annotations:\n${keys}\n    k7: again\n`;
}
