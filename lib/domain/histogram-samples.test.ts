import { describe, expect, it } from "vitest";
import { newAccumulator, type VariantAccumulator } from "./experiments";
import { histogramQuantile, normaliseBuckets, type Bucket } from "./histogram";
import { RAW_LIMIT, RELATIVE_ACCURACY } from "./stats/latency-samples";
import { quantileWithCI } from "./stats/quantile-ci";
import { addBucketsAsSamples } from "./histogram-samples";

// A histogram's buckets become the experiment's latency samples: each bucket's requests spread
// evenly inside it (histogram_quantile's own reading), kept raw up to the raw-sample limit and
// sketched beyond it without a step per observation.

/** The import as it was, one add() per observation (kept here as the reference on small cases). */
function perObservation(acc: VariantAccumulator, buckets: Bucket[], toMs = 1000): number {
  let previousBound = 0;
  let previousCount = 0;
  let added = 0;
  for (const bucket of normaliseBuckets(buckets)) {
    const count = Math.round(bucket.count - previousCount);
    const upper = Number.isFinite(bucket.upperBound) ? bucket.upperBound : previousBound;
    for (let k = 0; k < count; k++)
      acc.latency.ttftMs.add((previousBound + ((upper - previousBound) * (k + 0.5)) / count) * toMs);
    added += count;
    previousBound = Number.isFinite(bucket.upperBound) ? bucket.upperBound : previousBound;
    previousCount = bucket.count;
  }
  acc.requests += added;
  return added;
}

function percentile(acc: VariantAccumulator, p: number): number {
  const estimate = quantileWithCI(acc.latency.ttftMs.ranks(), p);
  if (!estimate.ok) throw new Error(estimate.reason);
  return estimate.value;
}

/** Cumulative buckets (seconds) from per-bucket counts. */
function cumulative(bounds: number[], counts: number[]): Bucket[] {
  let total = 0;
  return bounds.map((upperBound, i) => ({ upperBound, count: (total += counts[i]!) }));
}

const BOUNDS = [0.1, 0.25, 0.5, 1, 2.5, Number.POSITIVE_INFINITY];

describe("experiment samples from histogram buckets", () => {
  it("gives the per-observation import's percentiles on small cases, raw and sketched", () => {
    for (const counts of [
      [100, 400, 300, 150, 45, 5], // 1,000: raw, exact
      [20_000, 80_000, 60_000, 30_000, 9_000, 1_000], // 200,000: sketched
    ]) {
      const buckets = cumulative(BOUNDS, counts);
      const [bulk, reference] = [newAccumulator(), newAccumulator()];
      expect(addBucketsAsSamples(bulk, buckets)).toBe(perObservation(reference, buckets));
      expect(bulk.requests).toBe(reference.requests);
      expect(bulk.latency.ttftMs.isExact).toBe(reference.latency.ttftMs.isExact);
      for (const p of [0.5, 0.95, 0.99]) {
        const [a, b] = [percentile(bulk, p), percentile(reference, p)];
        // The same bins; a value computed in ms rather than in seconds may round across a bin edge.
        expect(Math.abs(a - b) / b).toBeLessThanOrEqual(2 * RELATIVE_ACCURACY);
      }
    }
  });

  it("20 million observations: p50, p95 and p99 are histogram_quantile's on the same buckets, within the sketch's accuracy", () => {
    const counts = [2_000_000, 6_000_000, 7_000_000, 4_000_000, 900_000, 100_000];
    const buckets = cumulative(BOUNDS, counts);
    const acc = newAccumulator();
    expect(addBucketsAsSamples(acc, buckets)).toBe(20_000_000);
    expect(acc.latency.ttftMs.isExact).toBe(false);
    // By hand: p50 is rank 10M, in (0.25, 0.5] with 8M below: 250 + 250·2/7 ms;
    // p95 is rank 19M, the top of (0.5, 1]: 1000 ms; p99 is rank 19.8M in (1, 2.5]: 1000 + 1500·0.8/0.9 ms.
    const byHand = { 0.5: 250 + (250 * 2) / 7, 0.95: 1000, 0.99: 1000 + (1500 * 0.8) / 0.9 };
    for (const [p, expected] of Object.entries(byHand)) {
      const rule = histogramQuantile(Number(p), buckets);
      expect(rule.kind === "value" && rule.value * 1000).toBeCloseTo(expected, 6);
      expect(Math.abs(percentile(acc, Number(p)) - expected) / expected).toBeLessThanOrEqual(RELATIVE_ACCURACY * 1.01);
    }
  });

  it("spreads every observation of a bucket past 200,000, not the rest at its midpoint", () => {
    // 1M requests in (0, 1] s: evenly spread, the p25 is 250 ms. Piling all but 200,000 at the
    // midpoint (500 ms) made it 500 ms, and every interval of a crowded bucket collapse onto it.
    const acc = newAccumulator();
    addBucketsAsSamples(acc, cumulative([1, Number.POSITIVE_INFINITY], [1_000_000, 0]));
    expect(Math.abs(percentile(acc, 0.25) - 250) / 250).toBeLessThanOrEqual(RELATIVE_ACCURACY * 1.01);
    const p50 = quantileWithCI(acc.latency.ttftMs.ranks(), 0.5);
    expect(p50.ok && p50.upper - p50.lower).toBeLessThan(10);
    expect(acc.latency.ttftMs.count).toBeGreaterThan(RAW_LIMIT);
  });

  it("refuses counts past 2^53 (where one more request is no more) and infinite ones, at once", () => {
    // 1e17 requests in (0, 0.5] s: spreading them never ended (k + 1 === k past 2^53).
    for (const count of [1e17, 2 ** 53 + 2, Number.POSITIVE_INFINITY])
      expect(() =>
        addBucketsAsSamples(newAccumulator(), cumulative([0.5, Number.POSITIVE_INFINITY], [count, 0])),
      ).toThrow(/more than can be counted exactly/);
    // 8e15 is still exact and quick.
    const acc = newAccumulator();
    expect(addBucketsAsSamples(acc, cumulative([0.5, Number.POSITIVE_INFINITY], [8e15, 0]))).toBe(8e15);
  });
});
