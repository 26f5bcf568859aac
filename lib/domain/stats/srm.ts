// Sample-ratio mismatch: do the variants' sample counts fit their configured traffic weights?
// Pearson's chi-square goodness of fit; a p-value under 0.001 means the assignment is broken and
// no latency verdict can be trusted.

import { upperRegularisedGamma } from "./special";

export const SRM_THRESHOLD = 0.001;

export type SrmResult = {
  chiSquare: number;
  degreesOfFreedom: number;
  pValue: number;
  isMismatch: boolean;
  expected: number[];
};

export function sampleRatioMismatch(counts: number[], weights: number[]): SrmResult {
  if (counts.length !== weights.length || counts.length < 2)
    throw new RangeError("One count and one weight per variant, at least two variants");
  const total = counts.reduce((a, b) => a + b, 0);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const expected = weights.map((w) => (total * w) / weightSum);
  const chiSquare = counts.reduce((sum, observed, i) => sum + (observed - expected[i]!) ** 2 / expected[i]!, 0);
  const degreesOfFreedom = counts.length - 1;
  const pValue = total === 0 ? 1 : upperRegularisedGamma(degreesOfFreedom / 2, chiSquare / 2);
  return { chiSquare, degreesOfFreedom, pValue, isMismatch: pValue < SRM_THRESHOLD, expected };
}
