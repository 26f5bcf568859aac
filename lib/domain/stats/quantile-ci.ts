import { twoSidedZ } from "./normal";
import { logGamma } from "./special";

// Percentiles of per-request samples with distribution-free confidence intervals from order
// statistics. The number B of samples at or below the true p-quantile is Binomial(n, p), so
// [X(l), X(u)] covers it with probability P(l ≤ B ≤ u − 1). The ranks are chosen from the exact
// binomial distribution (each tail at most (1 − confidence) / 2), so for continuous data the
// coverage is at least the stated confidence; `coverage` reports the exact figure. (Rounding a
// normal approximation outwards, as GrowthBook and Statsig do, does not guarantee that.) Above
// the raw-sample limit the values at those ranks come from a DDSketch, within its 0.5 % accuracy.

export type QuantileEstimate =
  | { ok: true; p: number; n: number; value: number; lower: number; upper: number; coverage: number }
  | { ok: false; p: number; n: number; needed: number; reason: string };

/** Something that can answer "the value at 1-based rank r of n" (sorted samples or a sketch). */
export type RankSource = { n: number; valueAtRank: (rank: number) => number };

export function sortedRanks(sorted: ArrayLike<number>): RankSource {
  return { n: sorted.length, valueAtRank: (rank) => sorted[rank - 1]! };
}

function logBinomialPmf(n: number, p: number, k: number): number {
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log1p(-p);
}

/**
 * The ranks [l, u] of the exact two-sided interval for the p-quantile of n samples, with its
 * coverage; null when no such interval fits inside the sample (too few samples). Only the
 * binomial mass within 12 standard deviations of the mode is summed: the rest is below 1e-30.
 */
export function orderStatisticInterval(
  n: number,
  p: number,
  confidence: number,
): { lowerRank: number; upperRank: number; coverage: number } | null {
  const tail = (1 - confidence) / 2;
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const span = Math.ceil(12 * Math.sqrt(n * p * (1 - p))) + 12;
  const lo = Math.max(0, mode - span);
  const hi = Math.min(n, mode + span);
  const pmf = new Float64Array(hi - lo + 1);
  pmf[mode - lo] = Math.exp(logBinomialPmf(n, p, mode));
  const odds = p / (1 - p);
  for (let k = mode + 1; k <= hi; k++) pmf[k - lo] = ((pmf[k - 1 - lo]! * (n - k + 1)) / k) * odds;
  for (let k = mode - 1; k >= lo; k--) pmf[k - lo] = (pmf[k + 1 - lo]! * (k + 1)) / (n - k) / odds;

  let lowerRank = 0;
  let below = 0; // P(B ≤ lowerRank − 1)
  for (let k = lo, sum = 0; k <= hi; k++) {
    sum += pmf[k - lo]!;
    if (sum > tail) break;
    lowerRank = k + 1;
    below = sum;
  }
  let upperRank = n + 1;
  let above = 0; // P(B ≥ upperRank)
  for (let k = hi, sum = 0; k >= lo; k--) {
    sum += pmf[k - lo]!;
    if (sum > tail) break;
    upperRank = k;
    above = sum;
  }
  if (lowerRank < 1 || upperRank > n) return null;
  return { lowerRank, upperRank, coverage: 1 - below - above };
}

/**
 * A percentile p needs more than 4p/(1−p) samples before its interval means anything (the rule
 * GrowthBook uses), and enough that both ends of the exact interval lie inside the sample.
 */
export function minimumSamples(p: number, confidence = 0.95): number {
  // 4 × 0.95 / 0.05 is 75.999… in floating point; the tolerance keeps the rule exact.
  const byRule = Math.floor((4 * p) / (1 - p) + 1e-9) + 1;
  let n = Math.max(byRule, Math.ceil(Math.log((1 - confidence) / 2) / Math.log(Math.max(p, 1 - p)) - 1e-9));
  while (!orderStatisticInterval(n, p, confidence)) n++;
  return n;
}

export function quantileWithCI(source: RankSource, p: number, confidence = 0.95): QuantileEstimate {
  const { n } = source;
  const needed = minimumSamples(p, confidence);
  const interval = n >= needed ? orderStatisticInterval(n, p, confidence) : null;
  if (!interval) {
    return {
      ok: false,
      p,
      n,
      needed,
      reason: `p${Math.round(p * 100)} needs at least ${needed} samples, this variant has ${n}`,
    };
  }
  return {
    ok: true,
    p,
    n,
    value: source.valueAtRank(Math.min(n, Math.max(1, Math.ceil(n * p)))),
    lower: source.valueAtRank(interval.lowerRank),
    upper: source.valueAtRank(interval.upperRank),
    coverage: interval.coverage,
  };
}

/** The standard error implied by an interval with the given coverage, for comparing two estimates. */
export function standardErrorOf(estimate: Extract<QuantileEstimate, { ok: true }>): number {
  return (estimate.upper - estimate.lower) / (2 * twoSidedZ(estimate.coverage));
}
