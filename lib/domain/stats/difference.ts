import { twoSidedZ } from "./normal";
import { standardErrorOf, type QuantileEstimate } from "./quantile-ci";

// Treatment against control, as an absolute difference and as a relative change, with intervals
// that can never contradict each other or the significance shown. The absolute interval is the
// normal one for a difference of independent estimates. The relative one is Fieller's interval
// for the ratio T/C, the exact version of the delta method: it holds the ratios ρ with
// (T − ρC)² ≤ z²(seT² + ρ²seC²), so it contains ρ = 1 exactly when (T − C)² ≤ z²(seT² + seC²),
// i.e. exactly when the absolute interval contains 0.

export type PointEstimate = { value: number; standardError: number };

export type Difference = {
  absolute: number;
  absoluteLower: number;
  absoluteUpper: number;
  /** T / C − 1; null when the control is 0. */
  relative: number | null;
  /** null: unbounded on that side (the control's value is too uncertain to divide by). */
  relativeLower: number | null;
  relativeUpper: number | null;
  /** True exactly when both intervals exclude 0. */
  isSignificant: boolean;
};

export function compareEstimates(control: PointEstimate, treatment: PointEstimate, confidence = 0.95): Difference {
  const z = twoSidedZ(confidence);
  const { value: c, standardError: seC } = control;
  const { value: t, standardError: seT } = treatment;
  const absolute = t - c;
  const halfWidth = z * Math.hypot(seC, seT);
  // Differences within float noise of the interval's edge count as touching 0: not significant,
  // and the bound nearest 0 is set to 0 in both intervals.
  const margin = Math.abs(absolute) - halfWidth;
  const tolerance = 1e-9 * Math.max(Math.abs(c), Math.abs(t), halfWidth);
  const isSignificant = margin > tolerance;
  const isTouching = !isSignificant && margin > -tolerance;
  const absoluteBounds = touchZero([absolute - halfWidth, absolute + halfWidth], isTouching) as [number, number];
  const base = {
    absolute,
    absoluteLower: absoluteBounds[0],
    absoluteUpper: absoluteBounds[1],
    relative: c !== 0 ? t / c - 1 : null,
    isSignificant,
  };
  // Ratios ρ with a·ρ² − 2b·ρ + k ≤ 0, k = t² − z²seT². The discriminant b² − a·k is written as
  // z²(seT²·a + t²·seC²), which has no cancellation when the intervals are narrow.
  const a = c * c - z * z * seC * seC;
  const b = t * c;
  const discriminant = z * z * (seT * seT * a + t * t * seC * seC);
  if (a > 0) {
    const root = Math.sqrt(Math.max(0, discriminant));
    const [lower, upper] = touchZero([(b - root) / a - 1, (b + root) / a - 1], isTouching);
    return { ...base, relativeLower: lower, relativeUpper: upper };
  }
  // The control's own interval reaches 0: the set of ratios is unbounded. When the difference is
  // significant it is the ray away from ρ = 1 on the estimate's side; otherwise everything.
  if (!isSignificant || a === 0 || discriminant < 0) return { ...base, relativeLower: null, relativeUpper: null };
  const root = Math.sqrt(discriminant);
  const [r1, r2] = [(b + root) / a, (b - root) / a].sort((x, y) => x - y) as [number, number];
  return absolute > 0
    ? { ...base, relativeLower: r2 - 1, relativeUpper: null }
    : { ...base, relativeLower: null, relativeUpper: r1 - 1 };
}

/** Moves the bound nearest 0 onto 0 when the interval only misses 0 by float noise. */
function touchZero<T extends number | null>([lower, upper]: [T, T], isTouching: boolean): [T, T] {
  if (!isTouching || lower === null || upper === null) return [lower, upper];
  if (lower > 0) return [0 as T, upper];
  if (upper < 0) return [lower, 0 as T];
  return [lower, upper];
}

/** Treatment − control for one percentile; each side's standard error read off its own interval. */
export function quantileDifference(
  control: Extract<QuantileEstimate, { ok: true }>,
  treatment: Extract<QuantileEstimate, { ok: true }>,
  confidence = 0.95,
): Difference {
  return compareEstimates(
    { value: control.value, standardError: standardErrorOf(control) },
    { value: treatment.value, standardError: standardErrorOf(treatment) },
    confidence,
  );
}
