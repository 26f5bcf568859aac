import "server-only";
import type { MetricSource } from "@/lib/domain/budget";
import { kindOf, toSeconds, unitOf } from "@/lib/domain/units";
import { windowSeconds } from "@/lib/domain/windows";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { bucketSelector, nativeSelector } from "@/lib/prometheus/promql";
import { parseInput } from "@/lib/schemas/parse";
import { exemplarQuerySchema } from "@/lib/schemas/live";
import { getBudgetForLiveView } from "./budgets";
import type { LiveViewArgs } from "./runtime";

// From a red bar to the slow requests themselves: the exemplars Prometheus stored for a
// component's histogram (trace IDs its exporter attached to observations), slowest first, each
// linked to its trace through LB_TRACE_URL_TEMPLATE.

export const END_TO_END_COMPONENT = "end-to-end";

export type Exemplar = {
  traceId: string;
  valueMs: number;
  at: number;
  labels: Record<string, string>;
  url: string | null;
};

export type ExemplarsView = {
  component: string;
  window: string;
  start: number;
  end: number;
  exemplars: Exemplar[];
  /** Whether this Prometheus stores exemplars (its exemplar-storage feature), when it says. */
  storage: "enabled" | "disabled" | "unknown";
  /** Why the list is empty, and how to fill it; null when it is not. */
  note: string | null;
  error: string | null;
};

type ExemplarData = {
  seriesLabels: Record<string, string>;
  exemplars: { labels: Record<string, string>; value: string; timestamp: number }[];
}[];

/** The label names tracing SDKs and exporters use for a trace ID. */
const TRACE_LABELS = ["trace_id", "traceID", "traceId", "TraceID", "trace-id"];

export function traceUrl(template: string | undefined, traceId: string): string | null {
  return template ? template.replaceAll("{traceId}", encodeURIComponent(traceId)) : null;
}

async function exemplarStorage(prom: CoalescingClient): Promise<ExemplarsView["storage"]> {
  const flags = await prom.get<Record<string, string>>("/api/v1/status/flags");
  if (flags.status !== "success" || typeof flags.data["enable-feature"] !== "string") return "unknown";
  return flags.data["enable-feature"].split(",").includes("exemplar-storage") ? "enabled" : "disabled";
}

function sourceOf(budget: Awaited<ReturnType<typeof getBudgetForLiveView>>, component: string): MetricSource {
  if (component === END_TO_END_COMPONENT) {
    if (!budget.endToEndSource) throw new AppError("NOT_FOUND", "This service has no end-to-end histogram.");
    return budget.endToEndSource;
  }
  const found = budget.stages.flatMap((stage) => stage.components).find((c) => c.name === component);
  if (!found) throw new AppError("NOT_FOUND", `No component “${component}” in this service's budget.`);
  if (!found.source) throw new AppError("VALIDATION_FAILED", `“${component}” has no histogram, so no exemplars.`);
  return found.source;
}

function emptyNote(storage: ExemplarsView["storage"], metric: string, window: string): string {
  if (storage === "disabled")
    return (
      "This Prometheus does not store exemplars. Start it with --enable-feature=exemplar-storage, and let it " +
      "scrape the exporter in OpenMetrics (the default when the exporter offers it)."
    );
  return (
    `No exemplars for ${metric} in the last ${window}` +
    (storage === "unknown"
      ? " (this Prometheus does not say whether it stores exemplars: see --enable-feature=exemplar-storage)"
      : "") +
    ". The exporter must attach trace IDs to its observations as OpenMetrics exemplars: prom-client's " +
    "enableExemplars with exemplarLabels { trace_id }, the OTel SDKs when a trace is sampled, the spanmetrics " +
    "connector with exemplars enabled."
  );
}

export async function getExemplars(args: LiveViewArgs): Promise<ExemplarsView> {
  const query = parseInput(exemplarQuerySchema, args.query, "The query");
  const budget = await getBudgetForLiveView(args);
  const source = sourceOf(budget, query.component);
  const end = Math.floor(query.end ?? args.now ?? Date.now() / 1000);
  const start = end - windowSeconds(query.window);
  const base = { component: query.component, window: query.window, start, end, exemplars: [] };
  const prom = args.prom;
  if (!prom)
    return {
      ...base,
      storage: "unknown",
      note: null,
      error: "Prometheus is not configured: set PROMETHEUS_URL to see exemplars.",
    };
  const selector = kindOf(source) === "native" ? nativeSelector(source) : bucketSelector(source);
  const params = new URLSearchParams({ query: selector, start: String(start), end: String(end) });
  const [result, storage] = await Promise.all([
    prom.get<ExemplarData>(`/api/v1/query_exemplars?${params.toString()}`),
    exemplarStorage(prom),
  ]);
  if (result.status !== "success")
    return { ...base, storage, note: null, error: `Prometheus query failed: ${result.error} (${result.errorType})` };
  const unit = unitOf(source);
  const template = env().LB_TRACE_URL_TEMPLATE;
  const seen = new Set<string>();
  const exemplars: Exemplar[] = [];
  for (const series of result.data ?? []) {
    for (const exemplar of series.exemplars ?? []) {
      const label = TRACE_LABELS.find((name) => exemplar.labels[name]);
      const value = Number(exemplar.value);
      if (!label || !Number.isFinite(value)) continue;
      const traceId = exemplar.labels[label]!;
      // A bucket keeps its exemplar across scrapes: Prometheus stores it once, but dedupe anyway.
      const key = `${traceId}\u0000${exemplar.timestamp}`;
      if (seen.has(key)) continue;
      seen.add(key);
      exemplars.push({
        traceId,
        valueMs: toSeconds(value, unit) * 1000,
        at: exemplar.timestamp,
        labels: Object.fromEntries(Object.entries(series.seriesLabels).filter(([name]) => name !== "__name__")),
        url: traceUrl(template, traceId),
      });
    }
  }
  exemplars.sort((a, b) => b.valueMs - a.valueMs || b.at - a.at);
  const kept = exemplars.slice(0, query.limit);
  return {
    ...base,
    exemplars: kept,
    storage,
    note: kept.length === 0 ? emptyNote(storage, source.metric, query.window) : null,
    error: null,
  };
}
