import "server-only";
import { annotationsBetween, type AnnotationView } from "./annotations";
import type { SloRow } from "@/lib/db/slos";
import { histogramQuantile } from "@/lib/domain/histogram";
import {
  KPI_HISTOGRAMS,
  known,
  SCALAR_KPIS,
  type KpiHistogram,
  type Percentiles,
  type ScalarKpi,
} from "@/lib/domain/kpis";
import { fetchBucketRates } from "@/lib/prometheus/buckets";
import { KPI_LABEL, quantileExpr, scalarExprs, taggedExprs, type SloRates } from "@/lib/prometheus/kpis";
import { queryRange } from "@/lib/prometheus/range";
import { countSloThreshold, goodRateExpr, totalRateExpr } from "@/lib/prometheus/sli";
import { durationSeconds } from "@/lib/schemas/live";
import { kpiQuerySchema } from "@/lib/schemas/insights";
import { parseInput } from "@/lib/schemas/parse";
import type { LiveViewArgs } from "./runtime";
import { getBudgetForLiveView, type BudgetView } from "./budgets";
import { jsonCache } from "./json-cache";
import { getSlosForLiveView } from "./slo-definitions";

// The service overview of seed 004's KPIs, each with a sparkline over the window. Throughput
// counts only requests within the SLO (goodput); tokens per second under the SLO is the token
// rate times the share of requests within it (tokens are counted in aggregate, not per request).

export type Sparkline = [number, number | null][];

export type KpiView = {
  slug: string;
  window: string;
  at: number;
  prometheus: "up" | "down" | "unconfigured";
  error: string | null;
  /** The label matchers the engine's counters are read with: the end-to-end histogram's. */
  selector: Record<string, string> | null;
  slo: { name: string; thresholdMs: number; objective: number; explanation: string } | null;
  ttftMs: Percentiles;
  itlMs: Percentiles;
  endToEndMs: Percentiles;
  /** Prefix (KV) cache hit rate, else the response cache's. */
  cacheHitRate: number | null;
  cacheHitRates: { prefix: number | null; response: number | null };
  sparklines: Partial<Record<ScalarKpi | "ttftP95Ms" | "itlP95Ms" | "endToEndP95Ms", Sparkline>>;
  /** What changed within the window: markers on the sparklines. */
  annotations: AnnotationView[];
} & Record<ScalarKpi, number | null>;

const NO_PERCENTILES: Percentiles = { p50: null, p95: null, p99: null, lowerBounds: [], metric: null };
const HISTOGRAM_KINDS = Object.keys(KPI_HISTOGRAMS) as KpiHistogram[];

/** The SLO the KPIs judge by: the one on the end-to-end histogram, else the first. */
function primarySlo(slos: SloRow[], budget: BudgetView): SloRow | null {
  const e2e = budget.endToEndSource;
  return slos.find((s) => e2e && s.source.metric === e2e.metric) ?? slos[0] ?? null;
}

/** A sparkline's points cover the window in ~30 steps; each is a rate over two steps (≥ 30 s). */
export function sparkRange(windowSeconds: number, at: number) {
  const step = Math.max(5, Math.round(windowSeconds / 30));
  return { start: at - windowSeconds, end: at, step, rateWindow: `${Math.max(30, 2 * step)}s` };
}

function emptyView(
  slug: string,
  window: string,
  at: number,
  prometheus: KpiView["prometheus"],
  error: string | null,
): KpiView {
  const scalars = Object.fromEntries(SCALAR_KPIS.map((k) => [k, null])) as Record<ScalarKpi, null>;
  return {
    slug,
    window,
    at,
    prometheus,
    error,
    selector: null,
    slo: null,
    ttftMs: NO_PERCENTILES,
    itlMs: NO_PERCENTILES,
    endToEndMs: NO_PERCENTILES,
    cacheHitRate: null,
    cacheHitRates: { prefix: null, response: null },
    sparklines: {},
    annotations: [],
    ...scalars,
  };
}

const responses = jsonCache("kpis", { ttlMs: 5000, maxEntries: 500 });

/** The KPIs as the API sends them, from the serialised-answer cache when they can be. */
export async function getKpisJson(args: LiveViewArgs): Promise<string> {
  const { window } = parseInput(kpiQuerySchema, args.query, "The query");
  const [definitions, budget] = await Promise.all([getSlosForLiveView(args), getBudgetForLiveView(args)]);
  const now = args.now ?? Date.now() / 1000;
  const at = args.prom ? args.prom.alignTime(now) : Math.floor(now);
  const key = `${args.prom?.baseUrl}|${args.slug}|v${budget.version}|${definitions.fingerprint}|${window}|${at}`;
  return responses.get(
    key,
    () => getKpis(args),
    (view) => !view.error,
  );
}

export async function getKpis({ db, prom, slug, query, now = Date.now() / 1000 }: LiveViewArgs): Promise<KpiView> {
  const { window } = parseInput(kpiQuerySchema, query, "The query");
  const definitions = await getSlosForLiveView({ db, slug });
  const budget = await getBudgetForLiveView({ db, slug });
  if (!prom)
    return emptyView(
      slug,
      window,
      Math.floor(now),
      "unconfigured",
      "Prometheus is not configured: set PROMETHEUS_URL to see KPIs.",
    );
  const at = prom.alignTime(now);
  const matchers = budget.endToEndSource?.matchers ?? null;
  const slo = primarySlo(definitions.rows, budget);
  let rates: SloRates | null = null;
  let sloInfo: KpiView["slo"] = null;
  if (slo) {
    const counted = await countSloThreshold(prom, slo, at);
    rates = { good: (w) => goodRateExpr(slo.source, counted, w), total: (w) => totalRateExpr(slo.source, w) };
    sloInfo = {
      name: slo.name,
      thresholdMs: slo.thresholdMs,
      objective: slo.objective,
      explanation: counted.explanation,
    };
  }
  const view = { ...emptyView(slug, window, at, "up", null), selector: matchers, slo: sloInfo };
  if (!matchers && !rates) {
    view.error = "This service has no end-to-end histogram and no SLO, so there is nothing to read KPIs from.";
    return view;
  }
  // Without an engine selector only the SLO's KPIs can be read.
  const m = matchers ?? {};
  const scalars = (w: string) => {
    const all = scalarExprs(m, w, rates);
    return matchers ? all : { throughputRps: all.throughputRps!, sloAttainment: all.sloAttainment! };
  };
  const spark = sparkRange(durationSeconds(window), at);
  const sparkExprs: Record<string, string> = { ...scalars(spark.rateWindow) } as Record<string, string>;
  if (matchers)
    for (const kind of HISTOGRAM_KINDS)
      sparkExprs[`${kind}P95Ms`] = `1000 * ${quantileExpr(kind, m, 0.95, spark.rateWindow)}`;

  const [buckets, instant, range] = await Promise.all([
    matchers
      ? fetchBucketRates(
          prom,
          HISTOGRAM_KINDS.flatMap((kind) =>
            KPI_HISTOGRAMS[kind].map((metric, i) => ({ key: `${kind}:${i}`, source: { metric, matchers: m } })),
          ),
          { window, time: at },
        )
      : null,
    prom.query(taggedExprs(scalars(window) as Record<string, string>), at),
    queryRange(prom, taggedExprs(sparkExprs), spark),
  ]);
  const failed = [buckets, instant, range].find((r) => r && r.status === "error");
  if (failed && failed.status === "error") {
    return { ...view, prometheus: "down", error: `Prometheus query failed: ${failed.error}` };
  }
  if (buckets?.status === "success")
    for (const kind of HISTOGRAM_KINDS) {
      const index = KPI_HISTOGRAMS[kind].findIndex((_, i) => {
        const b = buckets.groups.get(`${kind}:${i}`);
        return b && histogramQuantile(0.5, b).kind !== "none";
      });
      if (index < 0) continue;
      const groups = buckets.groups.get(`${kind}:${index}`)!;
      const percentiles: Percentiles = {
        p50: null,
        p95: null,
        p99: null,
        lowerBounds: [],
        metric: KPI_HISTOGRAMS[kind][index]!,
      };
      for (const [key, q] of [
        ["p50", 0.5],
        ["p95", 0.95],
        ["p99", 0.99],
      ] as const) {
        const estimate = histogramQuantile(q, groups);
        if (estimate.kind === "none") continue;
        percentiles[key] = estimate.value * 1000;
        if (estimate.kind === "atLeast") percentiles.lowerBounds.push(key);
      }
      view[`${kind === "ttft" ? "ttftMs" : kind === "itl" ? "itlMs" : "endToEndMs"}`] = percentiles;
    }
  if (instant.status === "success")
    for (const sample of instant.samples) {
      const name = sample.metric[KPI_LABEL] as ScalarKpi | undefined;
      if (name && (SCALAR_KPIS as readonly string[]).includes(name)) view[name] = known(sample.value);
    }
  if (range.status === "success")
    for (const series of range.series) {
      const name = series.metric[KPI_LABEL];
      if (name) (view.sparklines as Record<string, Sparkline>)[name] = series.points.map(([t, v]) => [t, known(v)]);
    }
  view.cacheHitRates = { prefix: view.prefixCacheHitRate, response: view.responseCacheHitRate };
  view.cacheHitRate = view.prefixCacheHitRate ?? view.responseCacheHitRate;
  view.annotations = await annotationsBetween(db, [slug], spark.start, spark.end);
  return view;
}
