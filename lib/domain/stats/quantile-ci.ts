import { twoSidedZ } from "./normal";

// Percentiles of per-request samples with confidence intervals from order statistics: the
// number of samples below the true quantile is Binomial(n, p), so the interval between the
// order statistics at ranks np ∓ z·√(np(1−p)) covers it with the stated confidence. Ranks are
// rounded outwards ("outer" CI, as GrowthBook and Statsig do), so coverage is not below nominal.

/** A percentile p needs more than 4p/(1−p) samples before its interval means anything. */
export function minimumSamples(p: number): number {
  // 4 × 0.95 / 0.05 is 75.999… in floating point; the tolerance keeps the rule exact.
  return Math.floor((4 * p) / (1 - p) + 1e-9) + 1;
}

export type QuantileEstimate =
  | { ok: true; p: number; n: number; value: number; lower: number; upper: number }
  | { ok: false; p: number; n: number; needed: number; reason: string };

/** Something that can answer "the value at 1-based rank r of n" (sorted samples or a sketch). */
export type RankSource = { n: number; valueAtRank: (rank: number) => number };

export function sortedRanks(sorted: ArrayLike<number>): RankSource {
  return { n: sorted.length, valueAtRank: (rank) => sorted[rank - 1]! };
}

export function quantileWithCI(source: RankSource, p: number, confidence = 0.95): QuantileEstimate {
  const { n } = source;
  const needed = minimumSamples(p);
  if (n < needed) {
    return {
      ok: false,
      p,
      n,
      needed,
      reason: `p${Math.round(p * 100)} needs at least ${needed} samples, this variant has ${n}`,
    };
  }
  const z = twoSidedZ(confidence);
  const center = n * p;
  const spread = z * Math.sqrt(n * p * (1 - p));
  const clamp = (rank: number) => Math.min(n, Math.max(1, rank));
  return {
    ok: true,
    p,
    n,
    value: source.valueAtRank(clamp(Math.ceil(center))),
    lower: source.valueAtRank(clamp(Math.floor(center - spread))),
    upper: source.valueAtRank(clamp(Math.ceil(center + spread))),
  };
}

export type Difference = {
  absolute: number;
  absoluteLower: number;
  absoluteUpper: number;
  relative: number;
  relativeLower: number;
  relativeUpper: number;
  isSignificant: boolean;
};

/**
 * Treatment − control for one percentile. Each side's standard error is read off its own
 * order-statistic interval (half-width / z); the difference and the ratio (delta method)
 * then get normal intervals. Significant when the interval excludes zero.
 */
export function quantileDifference(
  control: Extract<QuantileEstimate, { ok: true }>,
  treatment: Extract<QuantileEstimate, { ok: true }>,
  confidence = 0.95,
): Difference {
  const z = twoSidedZ(confidence);
  const seC = (control.upper - control.lower) / (2 * z);
  const seT = (treatment.upper - treatment.lower) / (2 * z);
  const absolute = treatment.value - control.value;
  const seAbs = Math.hypot(seC, seT);
  const relative = treatment.value / control.value - 1;
  const seRel = Math.sqrt(
    (seT * seT) / (control.value * control.value) +
      (treatment.value * treatment.value * seC * seC) / control.value ** 4,
  );
  return {
    absolute,
    absoluteLower: absolute - z * seAbs,
    absoluteUpper: absolute + z * seAbs,
    relative,
    relativeLower: relative - z * seRel,
    relativeUpper: relative + z * seRel,
    isSignificant: absolute - z * seAbs > 0 || absolute + z * seAbs < 0,
  };
}
