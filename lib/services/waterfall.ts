import "server-only";
import { LRUCache } from "lru-cache";
import { reportCacheSize } from "@/lib/observability/metrics";
import { componentKey, END_TO_END_KEY, buildWaterfall, type WaterfallModel } from "@/lib/domain/waterfall";
import type { MetricSource } from "@/lib/domain/budget";
import { fetchBucketRates } from "@/lib/prometheus/buckets";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { parseInput } from "@/lib/schemas/parse";
import { waterfallQuerySchema, type WaterfallQuery } from "@/lib/schemas/live";
import { getBudgetForLiveView, type BudgetView } from "./budgets";
import { jsonCache } from "./json-cache";
import type { LiveViewArgs } from "./runtime";

// The on-call view. One Prometheus query per view (all components and the end-to-end
// histogram together); when Prometheus fails, the last good answer is served marked stale.

export type WaterfallComponentView = WaterfallModel["stages"][number]["components"][number] & {
  previousActualMs?: number | null;
  deltaMs?: number | null;
};

export type WaterfallView = Omit<WaterfallModel, "stages"> & {
  slug: string;
  window: string;
  at: number;
  stale: boolean;
  staleSince: string | null;
  error: string | null;
  warnings: string[];
  prometheus: "up" | "down" | "unconfigured";
  stages: (Omit<WaterfallModel["stages"][number], "components"> & { components: WaterfallComponentView[] })[];
  compare: {
    at: number;
    label: string;
    stackedMs: number;
    stackedIsLowerBound: boolean;
    measuredEndToEndMs: number | null;
  } | null;
};

type Snapshot = { model: WaterfallModel; at: number; fetchedAt: string; warnings: string[] };

// The last good snapshot of each live view, shown (marked stale) while Prometheus is down.
const globalForStale = globalThis as unknown as { latencyBudgetsLastGood?: LRUCache<string, Snapshot> };
const lastGood = (globalForStale.latencyBudgetsLastGood ??= new LRUCache<string, Snapshot>({
  max: 500,
  maxSize: 32 << 20,
  sizeCalculation: (snapshot) => 2 * JSON.stringify(snapshot.model).length + 256,
}));
reportCacheSize("last-good", () => ({ entries: lastGood.size, bytes: lastGood.calculatedSize }));

export function sourcesOf(budget: BudgetView): { key: string; source: MetricSource }[] {
  const sources = budget.stages.flatMap((stage, s) =>
    stage.components.flatMap((component, c) =>
      component.source ? [{ key: componentKey(s, c), source: component.source }] : [],
    ),
  );
  if (budget.endToEndSource) sources.push({ key: END_TO_END_KEY, source: budget.endToEndSource });
  return sources;
}

async function snapshot(
  prom: CoalescingClient,
  budget: BudgetView,
  query: WaterfallQuery,
  at: number,
): Promise<Snapshot | { error: string }> {
  const sources = sourcesOf(budget);
  if (sources.length === 0)
    return {
      model: buildWaterfall(budget, query.quantile, new Map()),
      at,
      fetchedAt: new Date().toISOString(),
      warnings: [],
    };
  const result = await fetchBucketRates(prom, sources, { window: query.window, time: at });
  if (result.status === "error") return { error: `${result.error} (${result.errorType})` };
  return {
    model: buildWaterfall(budget, query.quantile, result.groups),
    at,
    fetchedAt: new Date().toISOString(),
    warnings: result.warnings,
  };
}

function compareTime(at: number, compare: string | undefined): { at: number; label: string } | null {
  if (!compare) return null;
  if (compare === "1h") return { at: at - 3600, label: "an hour ago" };
  if (compare === "1d") return { at: at - 86400, label: "a day ago" };
  return { at: Number(compare), label: new Date(Number(compare) * 1000).toISOString() };
}

type WaterfallArgs = LiveViewArgs;

/** The time a view is answered for: the asked `at`, or now, aligned to the client's step. */
function viewTime(prom: CoalescingClient | null, query: WaterfallQuery, now: number): number {
  return prom ? prom.alignTime(query.at ?? now) : Math.floor(query.at ?? now);
}

/**
 * What a page's waterfall shows for a link's parameters, known before anything is read (so the
 * page can ask for its timeline at the same time): a bad parameter opens the default view, as
 * the page does; `at` is the moment the view is computed for.
 */
export function waterfallPageQuery(
  prom: CoalescingClient | null,
  query: Record<string, unknown>,
  now = Date.now() / 1000,
): WaterfallQuery & { at: number; valid: boolean } {
  const parsed = waterfallQuerySchema.safeParse(query);
  const resolved = parsed.success ? parsed.data : waterfallQuerySchema.parse({});
  return { ...resolved, at: viewTime(prom, resolved, now), valid: parsed.success };
}

async function prepare({ db, slug, query }: WaterfallArgs): Promise<{ query: WaterfallQuery; budget: BudgetView }> {
  const parsed = parseInput(waterfallQuerySchema, query, "The query");
  return { query: parsed, budget: await getBudgetForLiveView({ db, slug }) };
}

export async function getWaterfall(args: WaterfallArgs): Promise<WaterfallView> {
  const { query, budget } = await prepare(args);
  return buildView(args.prom, args.slug, budget, query, args.now ?? Date.now() / 1000);
}

const responses = jsonCache("waterfall", { ttlMs: 5000, maxEntries: 500 });

/** The waterfall for a page's first paint: the API's answer, from the same cache. */
export async function getWaterfallForPage(args: WaterfallArgs): Promise<WaterfallView> {
  return JSON.parse(await getWaterfallJson(args)) as WaterfallView;
}

/** The waterfall as the API sends it: JSON text, from the serialised-answer cache when it can be. */
export async function getWaterfallJson(args: WaterfallArgs): Promise<string> {
  const { prom, slug, now = Date.now() / 1000 } = args;
  const { query, budget } = await prepare(args);
  const at = viewTime(prom, query, now);
  const key = `${prom?.baseUrl}|${slug}|v${budget.version}|${query.quantile}|${query.window}|${query.compare ?? ""}|${at}`;
  return responses.get(
    key,
    () => buildView(prom, slug, budget, query, now),
    (view) => !view.error,
  );
}

async function buildView(
  prom: CoalescingClient | null,
  slug: string,
  budget: BudgetView,
  query: WaterfallQuery,
  now: number,
): Promise<WaterfallView> {
  const isLive = query.at === undefined;
  const at = viewTime(prom, query, now);
  const base = { slug, window: query.window, at, warnings: [] as string[], compare: null };
  if (!prom) {
    const model = buildWaterfall(budget, query.quantile, new Map());
    return {
      ...model,
      ...base,
      stale: false,
      staleSince: null,
      prometheus: "unconfigured",
      error: "Prometheus is not configured: set PROMETHEUS_URL to see live percentiles.",
    };
  }
  const cacheKey = `${slug}|${query.quantile}|${query.window}|v${budget.version}`;
  const [current, previous] = await Promise.all([
    snapshot(prom, budget, query, at),
    (async () => {
      const c = compareTime(at, query.compare);
      return c ? { ...c, result: await snapshot(prom, budget, query, prom.alignTime(c.at)) } : null;
    })(),
  ]);
  let view: Snapshot;
  let stale = false;
  let error: string | null = null;
  if ("error" in current) {
    const good = isLive ? lastGood.get(cacheKey) : undefined;
    error = `Prometheus query failed: ${current.error}`;
    if (good) {
      view = good;
      stale = true;
    } else {
      view = {
        model: buildWaterfall(budget, query.quantile, new Map()),
        at,
        fetchedAt: new Date().toISOString(),
        warnings: [],
      };
    }
  } else {
    view = current;
    if (isLive) lastGood.set(cacheKey, current);
  }
  const previousModel = previous && !("error" in previous.result) ? previous.result.model : null;
  const stages = view.model.stages.map((stage, s) => ({
    ...stage,
    components: stage.components.map((component, c) => {
      if (!previousModel) return component;
      const before = previousModel.stages[s]?.components[c]?.actualMs ?? null;
      return {
        ...component,
        previousActualMs: before,
        deltaMs: before !== null && component.actualMs !== null ? component.actualMs - before : null,
      };
    }),
  }));
  return {
    ...view.model,
    ...base,
    at: view.at,
    stages,
    stale,
    staleSince: stale ? view.fetchedAt : null,
    error,
    warnings: view.warnings,
    prometheus: error ? "down" : "up",
    compare:
      previous && previousModel
        ? {
            at: previous.at,
            label: previous.label,
            stackedMs: previousModel.stackedMs,
            stackedIsLowerBound: previousModel.stackedIsLowerBound,
            measuredEndToEndMs: previousModel.measuredEndToEndMs,
          }
        : null,
  };
}
