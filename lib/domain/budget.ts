import { formatMs } from "./format";
import type { HistogramKind, HistogramUnit } from "./units";

// The budget of a service: an end-to-end target split over an ordered list of stages. A stage
// holds one component, or several that run in parallel. Pure types and math, no I/O.

export const PERCENTILES = ["p50", "p95", "p99"] as const;
export type PercentileKey = (typeof PERCENTILES)[number];

export const QUANTILE_OF: Record<PercentileKey, number> = { p50: 0.5, p95: 0.95, p99: 0.99 };

export function percentileKeyOf(quantile: number): PercentileKey | undefined {
  return PERCENTILES.find((key) => QUANTILE_OF[key] === quantile);
}

export type PercentileBudgets = Record<PercentileKey, number | null>;

export type MetricSource = {
  preset: string;
  /** Prometheus histogram base name, without `_bucket`. */
  metric: string;
  /** Equality label matchers, e.g. { stage: "rag" }. */
  matchers: Record<string, string>;
  /** The unit of its observations; when absent, read from the name (see units.ts), else seconds. */
  unit?: HistogramUnit;
  /** classic: `_bucket` series with `le`; native: Prometheus native histogram. Absent: classic. */
  kind?: HistogramKind;
};

export type BudgetComponent = {
  name: string;
  budgetMs: PercentileBudgets;
  source: MetricSource | null;
};

export type BudgetStage = { name: string; components: BudgetComponent[] };

export type BudgetDocument = {
  indicator: string;
  targetMs: number;
  /** The percentile the target applies to: 0.5, 0.95 or 0.99. */
  quantile: number;
  stages: BudgetStage[];
  /** The service's end-to-end histogram, for the measured percentile beside the stacked one. */
  endToEndSource?: MetricSource | null;
};

export type StageTime = {
  /** Critical path: the slowest of the stage's parallel components; null when none has a budget. */
  ms: number | null;
  criticalComponent: string | null;
};

export function stageTime(stage: BudgetStage, key: PercentileKey): StageTime {
  let best: StageTime = { ms: null, criticalComponent: null };
  for (const component of stage.components) {
    const ms = component.budgetMs[key];
    if (ms !== null && (best.ms === null || ms > best.ms)) best = { ms, criticalComponent: component.name };
  }
  return best;
}

export type PercentileFit = {
  key: PercentileKey;
  /** Sum over stages of each stage's critical-path budget. */
  stackedMs: number;
  marginMs: number;
  isOverTarget: boolean;
  /** Stages with no budget at this percentile: the stacked total leaves them out. */
  stagesWithoutBudget: string[];
  stageTimes: StageTime[];
};

export type BudgetFit = {
  targetKey: PercentileKey | undefined;
  byPercentile: Record<PercentileKey, PercentileFit>;
};

function percentileFit(doc: BudgetDocument, key: PercentileKey): PercentileFit {
  const stageTimes = doc.stages.map((stage) => stageTime(stage, key));
  const stackedMs = stageTimes.reduce((sum, t) => sum + (t.ms ?? 0), 0);
  const marginMs = doc.targetMs - stackedMs;
  return {
    key,
    stackedMs,
    marginMs,
    isOverTarget: marginMs < 0,
    stagesWithoutBudget: doc.stages.filter((_, i) => stageTimes[i]!.ms === null).map((s) => s.name),
    stageTimes,
  };
}

/**
 * How the budgets fit the end-to-end target, at each percentile. Stacking percentiles is a
 * planning convention, not a prediction: the percentile of a sum equals the sum of the
 * percentiles only when the components move together (comonotonic). Otherwise it can be below
 * the sum (independent, light-tailed components partly cancel) or above it (heavy tails, or a
 * rare slow path in one component), which is why the waterfall shows the measured end-to-end
 * percentile beside the stacked one.
 */
export function budgetFit(doc: BudgetDocument): BudgetFit {
  return {
    targetKey: percentileKeyOf(doc.quantile),
    byPercentile: {
      p50: percentileFit(doc, "p50"),
      p95: percentileFit(doc, "p95"),
      p99: percentileFit(doc, "p99"),
    },
  };
}

export function formatTarget(doc: Pick<BudgetDocument, "indicator" | "quantile" | "targetMs">): string {
  const key = percentileKeyOf(doc.quantile) ?? `q${doc.quantile}`;
  return `${doc.indicator} ${key} < ${formatMs(doc.targetMs)}`;
}
