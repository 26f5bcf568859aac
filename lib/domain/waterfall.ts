import { percentileKeyOf, type BudgetDocument } from "./budget";
import { histogramQuantile, type Bucket } from "./histogram";

// The waterfall: measured percentiles per component laid against their budgets, stage by
// stage. Pure: buckets in, view model out. A percentile that fell in the +Inf bucket is only a
// lower bound, and a stage without data is missing from the total: neither is ever shown as a
// precise number.

/** "unknown": a lower bound at or under the budget, so it may or may not be over. */
export type ComponentStatus = "ok" | "warn" | "over" | "unknown" | "nodata";

/** "Near budget" starts at this share of the budget. */
export const WARN_SHARE = 0.9;

export type WaterfallComponent = {
  name: string;
  actualMs: number | null;
  /** True when the percentile fell in the +Inf bucket: the real value is at least actualMs. */
  isLowerBound: boolean;
  budgetMs: number | null;
  status: ComponentStatus;
  onCriticalPath: boolean;
  hasSource: boolean;
};

export type WaterfallStage = {
  name: string;
  startMs: number;
  durationMs: number | null;
  /** The stage may last longer than durationMs: a component is a lower bound or has no data. */
  isLowerBound: boolean;
  components: WaterfallComponent[];
};

export type WaterfallModel = {
  quantile: number;
  targetMs: number;
  /** Sum of the stages' measured durations; a lower bound when stackedIsLowerBound. */
  stackedMs: number;
  stackedIsLowerBound: boolean;
  /** Stages none of whose components has data: left out of stackedMs. */
  stagesWithoutData: string[];
  stackedBudgetMs: number;
  measuredEndToEndMs: number | null;
  measuredEndToEndIsLowerBound: boolean;
  /** Whether the service has an end-to-end histogram at all (it may have no data yet). */
  hasEndToEndSource: boolean;
  /** Components per status, for the summary ("3 unknown", "nothing measured yet"). */
  statusCounts: Record<ComponentStatus, number>;
  stages: WaterfallStage[];
  worstOffender: { stage: string; component: string; overByMs: number; isLowerBound: boolean } | null;
};

export function componentKey(stageIndex: number, componentIndex: number): string {
  return `${stageIndex}.${componentIndex}`;
}

export const END_TO_END_KEY = "e2e";

export function statusOf(actualMs: number | null, isLowerBound: boolean, budgetMs: number | null): ComponentStatus {
  if (actualMs === null) return "nodata";
  if (budgetMs !== null && actualMs > budgetMs) return "over";
  if (isLowerBound) return "unknown";
  if (budgetMs === null) return "ok";
  if (actualMs >= WARN_SHARE * budgetMs) return "warn";
  return "ok";
}

function estimateMs(q: number, buckets: Bucket[] | undefined): { ms: number | null; isLowerBound: boolean } {
  if (!buckets) return { ms: null, isLowerBound: false };
  const estimate = histogramQuantile(q, buckets);
  if (estimate.kind === "none") return { ms: null, isLowerBound: false };
  return { ms: estimate.value * 1000, isLowerBound: estimate.kind === "atLeast" };
}

export function buildWaterfall(
  budget: BudgetDocument,
  quantile: number,
  buckets: Map<string, Bucket[]>,
): WaterfallModel {
  const key = percentileKeyOf(quantile) ?? "p95";
  let startMs = 0;
  let stackedBudgetMs = 0;
  let worstOffender: WaterfallModel["worstOffender"] = null;

  const stages = budget.stages.map((stage, s): WaterfallStage => {
    const components = stage.components.map((component, c): WaterfallComponent => {
      const { ms, isLowerBound } = estimateMs(quantile, buckets.get(componentKey(s, c)));
      const budgetMs = component.budgetMs[key];
      const status = statusOf(ms, isLowerBound, budgetMs);
      if (status === "over" && (!worstOffender || ms! - budgetMs! > worstOffender.overByMs)) {
        worstOffender = { stage: stage.name, component: component.name, overByMs: ms! - budgetMs!, isLowerBound };
      }
      return {
        name: component.name,
        actualMs: ms,
        isLowerBound,
        budgetMs,
        status,
        onCriticalPath: false,
        hasSource: component.source !== null,
      };
    });
    const measured = components.filter((c) => c.actualMs !== null);
    const critical = measured.reduce<WaterfallComponent | null>(
      (best, c) => (best === null || c.actualMs! > best.actualMs! ? c : best),
      null,
    );
    if (critical) critical.onCriticalPath = true;
    const durationMs = critical?.actualMs ?? null;
    const budgets = components.map((c) => c.budgetMs).filter((b): b is number => b !== null);
    stackedBudgetMs += budgets.length ? Math.max(...budgets) : 0;
    const isLowerBound = components.some((c) => c.isLowerBound || c.actualMs === null);
    const result: WaterfallStage = { name: stage.name, startMs, durationMs, isLowerBound, components };
    startMs += durationMs ?? 0;
    return result;
  });

  const endToEnd = estimateMs(quantile, buckets.get(END_TO_END_KEY));
  const statusCounts: Record<ComponentStatus, number> = { ok: 0, warn: 0, over: 0, unknown: 0, nodata: 0 };
  for (const stage of stages) for (const c of stage.components) statusCounts[c.status]++;
  return {
    quantile,
    targetMs: budget.targetMs,
    stackedMs: startMs,
    stackedIsLowerBound: stages.some((s) => s.isLowerBound),
    stagesWithoutData: stages.filter((s) => s.durationMs === null).map((s) => s.name),
    stackedBudgetMs,
    measuredEndToEndMs: endToEnd.ms,
    measuredEndToEndIsLowerBound: endToEnd.isLowerBound,
    hasEndToEndSource: Boolean(budget.endToEndSource),
    statusCounts,
    stages,
    worstOffender,
  };
}
