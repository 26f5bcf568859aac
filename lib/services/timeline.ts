import "server-only";
import type { MetricSource } from "@/lib/domain/budget";
import {
  buildTimeline,
  rateWindowFor,
  timelineSpan,
  type TimelineModel,
  type TimelineSeries,
} from "@/lib/domain/timeline";
import { windowSeconds } from "@/lib/domain/windows";
import { fetchBucketRateRange } from "@/lib/prometheus/buckets";
import { parseInput } from "@/lib/schemas/parse";
import { timelineQuerySchema, type TimelineQuery } from "@/lib/schemas/live";
import { annotationsBetween, type AnnotationView } from "./annotations";
import { getBudgetForLiveView, type BudgetView } from "./budgets";
import { jsonCache } from "./json-cache";
import type { LiveViewArgs } from "./runtime";
import { sourcesOf } from "./waterfall";

// The waterfall over time, for "since when": one query_range per view for every component (the
// snapshot's grouped query, over a range), each step built as the snapshot builds its instant.

export type TimelineView = Omit<TimelineModel, "series"> & {
  slug: string;
  range: string;
  start: number;
  end: number;
  stepSeconds: number;
  /** The PromQL range each point's rate reads: a point at t is histogram_quantile(q, rate(…[rateWindow])) at t. */
  rateWindow: string;
  series: (TimelineSeries & { source: Pick<MetricSource, "metric" | "matchers"> | null })[];
  annotations: AnnotationView[];
  error: string | null;
  prometheus: "up" | "down" | "unconfigured";
};

async function buildView(
  { db, prom, slug }: Pick<LiveViewArgs, "db" | "prom" | "slug">,
  budget: BudgetView,
  query: TimelineQuery,
  span: { start: number; end: number; stepSeconds: number },
): Promise<TimelineView> {
  const rateWindow = rateWindowFor(windowSeconds(query.window), span.stepSeconds);
  const times: number[] = [];
  for (let t = span.start; t <= span.end; t += span.stepSeconds) times.push(t);
  const [buckets, annotations] = await Promise.all([
    prom
      ? fetchBucketRateRange(prom, sourcesOf(budget), { window: rateWindow, ...span, step: span.stepSeconds })
      : null,
    annotationsBetween(db, [slug], span.start, span.end),
  ]);
  const failed = buckets?.status === "error" ? buckets : null;
  const model = buildTimeline(
    budget,
    query.quantile,
    times,
    buckets?.status === "success" ? buckets.groups : times.map(() => new Map()),
  );
  const components = budget.stages.flatMap((stage) => stage.components);
  return {
    ...model,
    slug,
    range: query.range,
    ...span,
    rateWindow,
    series: model.series.map((series, i) => ({
      ...series,
      source: components[i]?.source
        ? { metric: components[i].source.metric, matchers: components[i].source.matchers }
        : null,
    })),
    annotations,
    error: !prom
      ? "Prometheus is not configured: set PROMETHEUS_URL to see live percentiles."
      : failed
        ? `Prometheus query failed: ${failed.error} (${failed.errorType})`
        : null,
    prometheus: !prom ? "unconfigured" : failed ? "down" : "up",
  };
}

const responses = jsonCache("timeline", { ttlMs: 5000, maxEntries: 200 });

/** The question a request asks: its parsed query, the budget it reads and the span, end aligned to the step. */
async function prepare(args: LiveViewArgs) {
  const query = parseInput(timelineQuerySchema, args.query, "The query");
  const budget = await getBudgetForLiveView(args);
  const span = timelineSpan(query.range, Math.min(query.end ?? Infinity, args.now ?? Date.now() / 1000));
  return { query, budget, span };
}

export async function getTimeline(args: LiveViewArgs): Promise<TimelineView> {
  const { query, budget, span } = await prepare(args);
  return buildView(args, budget, query, span);
}

/** The timeline for a page's first paint: the API's answer, from the same cache. */
export async function getTimelineForPage(args: LiveViewArgs): Promise<TimelineView> {
  return JSON.parse(await getTimelineJson(args)) as TimelineView;
}

/** The timeline as the API sends it, from the serialised-answer cache when it can be. */
export async function getTimelineJson(args: LiveViewArgs): Promise<string> {
  const { query, budget, span } = await prepare(args);
  const key = `${args.prom?.baseUrl}|${args.slug}|v${budget.version}|${query.quantile}|${query.range}|${query.window}|${span.end}`;
  return responses.get(
    key,
    () => buildView(args, budget, query, span),
    (view) => !view.error,
  );
}
