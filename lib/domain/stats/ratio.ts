import { twoSidedZ } from "./normal";

// A ratio metric such as cost per 1k tokens: Σcost / Σtokens over requests, never the mean of
// per-request ratios. The accumulator is mergeable (upload chunks, several sources), and its
// interval comes from the delta method.

export type RatioAccumulator = { n: number; sumX: number; sumY: number; sumXX: number; sumYY: number; sumXY: number };

export const emptyRatio = (): RatioAccumulator => ({ n: 0, sumX: 0, sumY: 0, sumXX: 0, sumYY: 0, sumXY: 0 });

export function addToRatio(acc: RatioAccumulator, x: number, y: number): void {
  acc.n++;
  acc.sumX += x;
  acc.sumY += y;
  acc.sumXX += x * x;
  acc.sumYY += y * y;
  acc.sumXY += x * y;
}

export function mergeRatios(a: RatioAccumulator, b: RatioAccumulator): RatioAccumulator {
  return {
    n: a.n + b.n,
    sumX: a.sumX + b.sumX,
    sumY: a.sumY + b.sumY,
    sumXX: a.sumXX + b.sumXX,
    sumYY: a.sumYY + b.sumYY,
    sumXY: a.sumXY + b.sumXY,
  };
}

/** lower, upper and standardError are null when one request cannot tell the spread. */
export type RatioEstimate = {
  value: number;
  lower: number | null;
  upper: number | null;
  standardError: number | null;
} | null;

/** x/y × scale with a delta-method interval; null when y sums to zero. */
export function ratioEstimate(acc: RatioAccumulator, scale = 1, confidence = 0.95): RatioEstimate {
  if (acc.n === 0 || acc.sumY === 0) return null;
  const meanX = acc.sumX / acc.n;
  const meanY = acc.sumY / acc.n;
  const ratio = meanX / meanY;
  if (acc.n < 2) return { value: ratio * scale, lower: null, upper: null, standardError: null };
  const varX = (acc.sumXX - acc.n * meanX * meanX) / (acc.n - 1);
  const varY = (acc.sumYY - acc.n * meanY * meanY) / (acc.n - 1);
  const cov = (acc.sumXY - acc.n * meanX * meanY) / (acc.n - 1);
  const variance = Math.max(0, (varX - 2 * ratio * cov + ratio * ratio * varY) / (acc.n * meanY * meanY));
  const standardError = Math.sqrt(variance) * scale;
  const half = twoSidedZ(confidence) * standardError;
  return { value: ratio * scale, lower: ratio * scale - half, upper: ratio * scale + half, standardError };
}
