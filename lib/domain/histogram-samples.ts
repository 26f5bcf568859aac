import type { VariantAccumulator } from "./experiments";
import { normaliseBuckets, type Bucket } from "./histogram";

// A histogram only knows bucket counts: importing one into an experiment spreads each bucket's
// requests evenly inside it, the same linear interpolation histogram_quantile uses, so
// percentiles are estimates within a bucket's width.

/**
 * Adds a histogram's observations as evenly spread values (the +Inf bucket at its lower bound).
 * Beyond the raw-sample limit each bucket goes into the sketch bin by bin, with counts as weights:
 * no step per observation, so a month of requests costs what an hour does.
 */
export function addBucketsAsSamples(acc: VariantAccumulator, buckets: Bucket[], toMs = 1000): number {
  const total = Math.max(0, ...buckets.map((b) => b.count));
  // Past 2^53 a count is no longer a whole number of requests (and +Inf or NaN is none at all).
  if (!Number.isSafeInteger(Math.round(total)))
    throw new RangeError(
      `The histogram counts ${total} requests, more than can be counted exactly (${Number.MAX_SAFE_INTEGER}).`,
    );
  let previousBound = 0;
  let previousCount = 0;
  let added = 0;
  for (const bucket of normaliseBuckets(buckets)) {
    const count = Math.round(bucket.count - previousCount);
    const upper = Number.isFinite(bucket.upperBound) ? bucket.upperBound : previousBound;
    if (count > 0) {
      acc.latency.ttftMs.addSpread(previousBound * toMs, upper * toMs, count);
      added += count;
    }
    previousBound = Number.isFinite(bucket.upperBound) ? bucket.upperBound : previousBound;
    previousCount = bucket.count;
  }
  acc.requests += added;
  return added;
}
