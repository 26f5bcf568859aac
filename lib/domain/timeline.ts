import type { BudgetDocument } from "./budget";
import type { Bucket } from "./histogram";
import { buildWaterfall } from "./waterfall";

// The waterfall over time: each component's measured pXX at every step of a range, against its
// budget, and the moment each went over budget. Pure: bucket maps per step in, series out. Each
// step is built by the same buildWaterfall as the snapshot, so a point at t is the waterfall at t.

export const TIMELINE_RANGES = ["15m", "1h", "3h", "6h", "12h", "24h", "2d", "7d"] as const;
export type TimelineRange = (typeof TIMELINE_RANGES)[number];

const RANGE_SECONDS: Record<TimelineRange, number> = {
  "15m": 900,
  "1h": 3600,
  "3h": 10_800,
  "6h": 21_600,
  "12h": 43_200,
  "24h": 86_400,
  "2d": 172_800,
  "7d": 604_800,
};

/** At most this many points per series: enough for a chart a screen wide, cheap to query. */
export const MAX_POINTS = 240;
const STEPS = [15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

/** Where a page pinned at `at` ends its timeline: a quarter of the range after the moment. */
export function timelineEnd(at: number, range: TimelineRange): number {
  return at + rangeSeconds(range) / 4;
}

export function rangeSeconds(range: TimelineRange): number {
  return RANGE_SECONDS[range];
}

/** The smallest round step that keeps the range within MAX_POINTS points: 15 s for 1 h, 10 min for 24 h. */
export function stepFor(range: TimelineRange): number {
  const seconds = RANGE_SECONDS[range];
  return STEPS.find((step) => seconds / step <= MAX_POINTS) ?? STEPS[STEPS.length - 1]!;
}

/** A whole number of seconds as a Prometheus duration: 300 → "5m", 7200 → "2h". */
export function durationOf(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

/**
 * The rate window each point reads: the waterfall's window, widened to the step when the step is
 * longer, so consecutive points never leave requests uncounted between them.
 */
export function rateWindowFor(windowSeconds: number, stepSeconds: number): string {
  return durationOf(Math.max(windowSeconds, stepSeconds));
}

export type Point = [unix: number, ms: number | null];

/** The [start, end] a range covers: `end` aligned down to the step, so every viewer asks the same question. */
export function timelineSpan(range: TimelineRange, end: number): { start: number; end: number; stepSeconds: number } {
  const stepSeconds = stepFor(range);
  const aligned = Math.floor(end / stepSeconds) * stepSeconds;
  return { start: aligned - RANGE_SECONDS[range], end: aligned, stepSeconds };
}

export type OverBudget = {
  /** The first point of the run of over-budget points that reaches the last point with data. */
  since: number;
  /** True when the run starts at the range's first point: it began at `since` or earlier. */
  sinceRangeStart: boolean;
};

/**
 * When a series went over its budget and stayed there up to now: the start of the last unbroken
 * run of points above the budget, when that run includes the last point. A gap without data
 * breaks the run (nothing says it was over then); so does any point at or under the budget.
 */
export function overBudgetSince(points: readonly Point[], budgetMs: number | null): OverBudget | null {
  if (budgetMs === null) return null;
  let since: number | null = null;
  let index = -1;
  for (let i = points.length - 1; i >= 0; i--) {
    const ms = points[i]![1];
    if (ms === null || ms <= budgetMs) break;
    since = points[i]![0];
    index = i;
  }
  return since === null ? null : { since, sinceRangeStart: index === 0 };
}

export type TimelineSeries = {
  stage: string;
  component: string;
  budgetMs: number | null;
  hasSource: boolean;
  points: Point[];
  overBudgetSince: number | null;
  overBudgetSinceRangeStart: boolean;
};

export type TimelineModel = {
  quantile: number;
  targetMs: number;
  series: TimelineSeries[];
  /** The end-to-end histogram's pXX, when the service has one. */
  endToEnd: { points: Point[]; overTargetSince: number | null } | null;
  /** The stacked critical path at each step: the waterfall's total. */
  stacked: { points: Point[] };
};

export function buildTimeline(
  budget: BudgetDocument,
  quantile: number,
  times: readonly number[],
  groups: readonly Map<string, Bucket[]>[],
): TimelineModel {
  const models = times.map((_, i) => buildWaterfall(budget, quantile, groups[i] ?? new Map()));
  const series = budget.stages.flatMap((stage, s) =>
    stage.components.map((component, c): TimelineSeries => {
      const points = times.map((t, i): Point => [t, models[i]!.stages[s]!.components[c]!.actualMs]);
      const budgetMs = models[0]?.stages[s]?.components[c]?.budgetMs ?? null;
      const over = overBudgetSince(points, budgetMs);
      return {
        stage: stage.name,
        component: component.name,
        budgetMs,
        hasSource: component.source !== null,
        points,
        overBudgetSince: over?.since ?? null,
        overBudgetSinceRangeStart: over?.sinceRangeStart ?? false,
      };
    }),
  );
  const endToEndPoints = times.map((t, i): Point => [t, models[i]!.measuredEndToEndMs]);
  return {
    quantile,
    targetMs: budget.targetMs,
    series,
    endToEnd: budget.endToEndSource
      ? { points: endToEndPoints, overTargetSince: overBudgetSince(endToEndPoints, budget.targetMs)?.since ?? null }
      : null,
    stacked: {
      points: times.map((t, i): Point => {
        const model = models[i]!;
        return [t, model.stages.some((stage) => stage.durationMs !== null) ? model.stackedMs : null];
      }),
    },
  };
}
