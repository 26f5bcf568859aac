import type { MetricSource } from "./budget";
import type { CalendarUnit } from "./calendar";
import { countAtOrBelow, normaliseBuckets, type Bucket } from "./histogram";
import type { HistogramKind } from "./units";

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

/**
 * Requests at or under the bound, and all requests. A classic histogram's good count is its bucket
 * at the bound (every observation ≤ bound). A native histogram's is what the recording rule counts,
 * histogram_fraction(0, bound) × histogram_count: observations at or below 0 (clock skew, and the
 * part of a zero bucket that spans 0 below it) are not good, and the total still counts them.
 */
export function goodAndTotal(
  buckets: readonly Bucket[],
  boundSeconds: number,
  kind: HistogramKind = "classic",
): GoodTotal {
  const normal = normaliseBuckets(buckets);
  const total =
    normal[normal.length - 1]?.upperBound === Number.POSITIVE_INFINITY ? normal[normal.length - 1]!.count : 0;
  const atOrBelow = Math.min(total, countAtOrBelow(boundSeconds, normal).count);
  if (kind === "classic") return { good: atOrBelow, total };
  if (!(boundSeconds > 0)) return { good: 0, total };
  return { good: Math.max(0, atOrBelow - countAtOrBelow(0, normal).count), total };
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
  /** Share of the error budget spent within the long window when the alert fires, by SLO length. */
  budgetShare: { week: number; month: number };
};

/**
 * Multi-window, multi-burn-rate alerts. For 28- and 30-day SLOs the shares are The Site
 * Reliability Workbook's (ch. 5: 2 % in 1 h, 5 % in 6 h, 10 % in 1 d and in 3 d). Scaling those
 * shares to a week would page at a quarter of the burn that matters for a week, so 7-day SLOs use
 * Sloth's published 7-day windows (slok/sloth examples/windows/7d.yaml: 8 %, 12.5 %, 20 %, 42 %),
 * which are what Sloth and Pyrra users see for a week.
 */
export const ALERT_RULES: AlertRule[] = [
  { severity: "page", longWindow: "1h", shortWindow: "5m", budgetShare: { week: 0.08, month: 0.02 } },
  { severity: "page", longWindow: "6h", shortWindow: "30m", budgetShare: { week: 0.125, month: 0.05 } },
  { severity: "ticket", longWindow: "1d", shortWindow: "2h", budgetShare: { week: 0.2, month: 0.1 } },
  { severity: "ticket", longWindow: "3d", shortWindow: "6h", budgetShare: { week: 0.42, month: 0.1 } },
];

/** The share of the budget a rule's alert stands for: a week's table up to 7 days, else a month's. */
export function budgetShare(rule: AlertRule, sloWindowSeconds: number): number {
  return sloWindowSeconds <= WINDOW_SECONDS["7d"]! ? rule.budgetShare.week : rule.budgetShare.month;
}

/**
 * factor = share of the budget spent × SLO window / long window: 14.4, 6, 3, 1 for 30 days,
 * 13.44, 3.5, 1.4, 0.98 for 7.
 */
export function burnRateFactor(rule: AlertRule, sloWindowSeconds: number): number {
  // Rounded to 1e-9 so 0.42 × 7 d / 3 d reads 0.98, not 0.9799999999999999.
  const exact = (budgetShare(rule, sloWindowSeconds) * sloWindowSeconds) / WINDOW_SECONDS[rule.longWindow]!;
  return Math.round(exact * 1e9) / 1e9;
}

/**
 * Alerts that can never fire: the error ratio they wait for, factor × (1 − objective), is 100 % or
 * more (below 93.06 % over 30 days the 1 h/5 m page needs more than every request to fail).
 */
export function unreachableAlerts(objective: number, sloWindowSeconds: number): AlertRule[] {
  return ALERT_RULES.filter((rule) => burnRateFactor(rule, sloWindowSeconds) * (1 - objective) >= 1);
}

/**
 * Says which alerts an objective leaves unable to fire, and the lowest objective at which all can
 * (1 − 1 / the largest factor: 93.06 % for 30 days); null when every alert can fire.
 */
export function unreachableAlertsNote(objective: number, sloWindowSeconds: number): string | null {
  const dead = unreachableAlerts(objective, sloWindowSeconds);
  if (dead.length === 0) return null;
  const largest = Math.max(...ALERT_RULES.map((rule) => burnRateFactor(rule, sloWindowSeconds)));
  const lowest = Math.ceil((1 - 1 / largest) * 1e4) / 100;
  const names = dead.map((rule) => `${rule.longWindow}/${rule.shortWindow} ${rule.severity}`).join(", ");
  return (
    `At this objective the ${names} alert${dead.length > 1 ? "s" : ""} can never fire: ` +
    `${dead.length > 1 ? "they wait" : "it waits"} for an error ratio of 100 % or more. ` +
    `Every alert can fire from an objective of ${lowest} %.`
  );
}

export type AlertState = {
  severity: "page" | "ticket";
  longWindow: BurnWindow;
  shortWindow: BurnWindow;
  factor: number;
  firing: boolean;
  /** True when factor × (1 − objective) ≥ 1: the alert waits for more than every request to fail. */
  unreachable: boolean;
};

export function alertStates(
  burnRates: Record<BurnWindow, number | null>,
  sloWindowSeconds: number,
  objective: number,
): AlertState[] {
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
      unreachable: factor * (1 - objective) >= 1,
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
  /** A native histogram's good count starts above 0, as histogram_fraction(0, t) does (goodAndTotal). */
  kind?: HistogramKind;
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
  const counts = goodAndTotal(overWindow, threshold.boundSeconds, slo.kind);
  const burnRates = Object.fromEntries(
    BURN_WINDOWS.map((w) => {
      const buckets = bucketsByWindow.get(w);
      return [w, buckets ? burnRate(goodAndTotal(buckets, threshold.boundSeconds, slo.kind), slo.objective) : null];
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
    alerts: alertStates(burnRates, slo.windowDays * 86400, slo.objective),
  };
}
