import type { MetricSource } from "./budget";
import type { CalendarUnit } from "./calendar";
import { countAtOrBelow, normaliseBuckets, type Bucket } from "./histogram";

// SLO attainment, error budget and burn rates from histogram bucket increases. Always ratios of
// sums over a window (good / total), never averages of per-interval ratios.

export const BURN_WINDOWS = ["5m", "30m", "1h", "2h", "6h", "1d", "3d"] as const;
export type BurnWindow = (typeof BURN_WINDOWS)[number];

export const WINDOW_SECONDS: Record<string, number> = {
  "5m": 300,
  "15m": 900,
  "30m": 1800,
  "1h": 3600,
  "2h": 7200,
  "6h": 21600,
  "1d": 86400,
  "3d": 259200,
  "7d": 604800,
  "28d": 2419200,
  "30d": 2592000,
};

export type ThresholdMode = "exact" | "snapped" | "estimated";

export type ThresholdResolution = {
  mode: ThresholdMode;
  /** The bound actually counted as "good", in seconds. */
  boundSeconds: number;
  /** The finite bucket bounds next to the threshold, for the explanation. */
  neighbours: { below: number | null; above: number | null };
};

const EPSILON = 1e-9;

/**
 * How a threshold maps onto bucket bounds. Exact when it is a bound; otherwise either snapped to
 * the nearest bound at or below it (conservative: attainment can only be understated) or
 * estimated by interpolating inside its bucket. Above the last finite bound there is no bucket
 * to interpolate in (the next one is +Inf), so it is counted at the last bound whatever the
 * preference.
 */
export function resolveThreshold(
  thresholdSeconds: number,
  bounds: readonly number[],
  preference: "snap" | "interpolate",
): ThresholdResolution {
  const finite = [...bounds].filter(Number.isFinite).sort((a, b) => a - b);
  const exact = finite.find((b) => Math.abs(b - thresholdSeconds) <= EPSILON * Math.max(1, thresholdSeconds));
  const below = [...finite].reverse().find((b) => b < thresholdSeconds) ?? null;
  const above = finite.find((b) => b > thresholdSeconds) ?? null;
  if (exact !== undefined) return { mode: "exact", boundSeconds: exact, neighbours: { below, above } };
  if ((preference === "snap" || above === null) && below !== null)
    return { mode: "snapped", boundSeconds: below, neighbours: { below, above } };
  return { mode: "estimated", boundSeconds: thresholdSeconds, neighbours: { below, above } };
}

export type GoodTotal = { good: number; total: number };

export function goodAndTotal(buckets: readonly Bucket[], boundSeconds: number): GoodTotal {
  const normal = normaliseBuckets(buckets);
  const total =
    normal[normal.length - 1]?.upperBound === Number.POSITIVE_INFINITY ? normal[normal.length - 1]!.count : 0;
  return { good: Math.min(total, countAtOrBelow(boundSeconds, normal).count), total };
}

/** good / total, or null when nothing was observed (no traffic is not 100 %). */
export function attainment({ good, total }: GoodTotal): number | null {
  return total > 0 ? good / total : null;
}

/** 1 − (bad / total) / (1 − objective): 1 is untouched, 0 is spent, below 0 is overspent. */
export function errorBudgetRemaining(counts: GoodTotal, objective: number): number | null {
  const ratio = attainment(counts);
  return ratio === null ? null : 1 - (1 - ratio) / (1 - objective);
}

/** How fast the error budget burns: 1 spends exactly the budget over the SLO window. */
export function burnRate(counts: GoodTotal, objective: number): number | null {
  const ratio = attainment(counts);
  return ratio === null ? null : (1 - ratio) / (1 - objective);
}

export type AlertRule = {
  severity: "page" | "ticket";
  longWindow: BurnWindow;
  shortWindow: BurnWindow;
  budgetShare: number;
};

/** Multi-window, multi-burn-rate alerts (The Site Reliability Workbook, ch. 5). */
export const ALERT_RULES: AlertRule[] = [
  { severity: "page", longWindow: "1h", shortWindow: "5m", budgetShare: 0.02 },
  { severity: "page", longWindow: "6h", shortWindow: "30m", budgetShare: 0.05 },
  { severity: "ticket", longWindow: "1d", shortWindow: "2h", budgetShare: 0.1 },
  { severity: "ticket", longWindow: "3d", shortWindow: "6h", budgetShare: 0.1 },
];

/** factor = share of the budget spent × SLO window / long window: 14.4, 6, 3, 1 for 30 days. */
export function burnRateFactor(rule: AlertRule, sloWindowSeconds: number): number {
  return (rule.budgetShare * sloWindowSeconds) / WINDOW_SECONDS[rule.longWindow]!;
}

export type AlertState = {
  severity: "page" | "ticket";
  longWindow: BurnWindow;
  shortWindow: BurnWindow;
  factor: number;
  firing: boolean;
};

export function alertStates(burnRates: Record<BurnWindow, number | null>, sloWindowSeconds: number): AlertState[] {
  return ALERT_RULES.map((rule) => {
    const factor = burnRateFactor(rule, sloWindowSeconds);
    const long = burnRates[rule.longWindow];
    const short = burnRates[rule.shortWindow];
    return {
      severity: rule.severity,
      longWindow: rule.longWindow,
      shortWindow: rule.shortWindow,
      factor,
      firing: long !== null && short !== null && long > factor && short > factor,
    };
  });
}

/** Everything that defines an SLO, as stored and as exported to rules and OpenSLO. */
export type SloSpec = {
  name: string;
  indicator: string;
  /** The histogram the SLO counts. */
  source: MetricSource;
  thresholdMs: number;
  objective: number;
  /** Rolling: the window. Calendar: the nominal length its alert factors use (7 or 30). */
  windowDays: number;
  windowKind: "rolling" | "calendar";
  calendarUnit: CalendarUnit | null;
  timeZone: string;
  /** When the threshold is not a bucket bound. */
  thresholdMode: "snap" | "interpolate";
  budgetingMethod: "occurrences" | "timeslices";
  timesliceMinutes: number | null;
  timesliceTarget: number | null;
};

export type SloDefinition = {
  thresholdMs: number;
  thresholdMode: "snap" | "interpolate";
  objective: number;
  windowDays: number;
};

export type SloEvaluation = {
  thresholdMode: ThresholdMode;
  /** The bound actually counted as good, in ms. */
  countedBoundMs: number;
  bucketBoundsMs: number[];
  good: number;
  total: number;
  attainment: number | null;
  errorBudgetRemaining: number | null;
  burnRates: Record<BurnWindow, number | null>;
  alerts: AlertState[];
};

export function emptyBurnRates(): Record<BurnWindow, number | null> {
  return Object.fromEntries(BURN_WINDOWS.map((w) => [w, null])) as Record<BurnWindow, number | null>;
}

/**
 * An SLO from its histogram's bucket increases, keyed by window: attainment over `viewWindow`,
 * burn rates over every burn window, and alert states whose factors always come from the SLO's
 * own window (a 28-day SLO viewed over 7 days still pages at 13.44×, not 3.36×).
 */
export function evaluateSlo(
  slo: SloDefinition,
  viewWindow: string,
  bucketsByWindow: ReadonlyMap<string, readonly Bucket[]>,
): SloEvaluation | null {
  const overWindow = bucketsByWindow.get(viewWindow) ?? [];
  const bounds = normaliseBuckets(overWindow)
    .map((b) => b.upperBound)
    .filter(Number.isFinite);
  if (bounds.length === 0) return null;
  const threshold = resolveThreshold(slo.thresholdMs / 1000, bounds, slo.thresholdMode);
  const counts = goodAndTotal(overWindow, threshold.boundSeconds);
  const burnRates = Object.fromEntries(
    BURN_WINDOWS.map((w) => {
      const buckets = bucketsByWindow.get(w);
      return [w, buckets ? burnRate(goodAndTotal(buckets, threshold.boundSeconds), slo.objective) : null];
    }),
  ) as Record<BurnWindow, number | null>;
  return {
    thresholdMode: threshold.mode,
    countedBoundMs: threshold.boundSeconds * 1000,
    bucketBoundsMs: bounds.map((b) => b * 1000),
    good: counts.good,
    total: counts.total,
    attainment: attainment(counts),
    errorBudgetRemaining: errorBudgetRemaining(counts, slo.objective),
    burnRates,
    alerts: alertStates(burnRates, slo.windowDays * 86400),
  };
}
