import { twoSidedZ } from "./normal";

// A mean with its interval, from mergeable moments (uploads arrive in chunks and from several
// sources). sumSquares is null for results stored before it was recorded: their mean is known,
// their spread is not.

export type Moments = { n: number; sum: number; sumSquares: number | null };

export const emptyMoments = (): Moments => ({ n: 0, sum: 0, sumSquares: 0 });

export function addToMoments(moments: Moments, x: number): void {
  moments.n++;
  moments.sum += x;
  if (moments.sumSquares !== null) moments.sumSquares += x * x;
}

export function mergeMoments(a: Moments, b: Moments): Moments {
  return {
    n: a.n + b.n,
    sum: a.sum + b.sum,
    sumSquares: a.sumSquares === null || b.sumSquares === null ? null : a.sumSquares + b.sumSquares,
  };
}

export type MeanEstimate = {
  mean: number;
  n: number;
  /** null when the spread is unknown (fewer than 2 values, or not recorded). */
  standardError: number | null;
  lower: number | null;
  upper: number | null;
};

export function meanEstimate(moments: Moments, confidence = 0.95): MeanEstimate | null {
  const { n, sum, sumSquares } = moments;
  if (n === 0) return null;
  const mean = sum / n;
  if (sumSquares === null || n < 2) return { mean, n, standardError: null, lower: null, upper: null };
  const variance = Math.max(0, (sumSquares - n * mean * mean) / (n - 1));
  const standardError = Math.sqrt(variance / n);
  const half = twoSidedZ(confidence) * standardError;
  return { mean, n, standardError, lower: mean - half, upper: mean + half };
}
