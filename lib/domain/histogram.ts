// Percentiles from cumulative histogram buckets, by the same rule as Prometheus's
// histogram_quantile (linear interpolation inside the bucket that holds the rank), plus what
// Prometheus does not say: whether the answer is only a lower bound because the rank fell in
// the +Inf bucket.

export type Bucket = {
  upperBound: number;
  count: number;
  /**
   * On the +Inf bucket of a native histogram: this total is the histogram's own count, which
   * Prometheus ranks against as it is (its small-delta smoothing is for classic buckets only).
   */
  isNativeCount?: true;
};

export type QuantileEstimate =
  | { kind: "value"; value: number }
  /** The quantile lies above the highest finite bound: all we know is "≥ value". */
  | { kind: "atLeast"; value: number }
  | { kind: "none"; reason: "no-observations" | "no-inf-bucket" | "too-few-buckets" };

// Go's strconv.ParseFloat, which Prometheus uses on `le`: a decimal number with no surrounding
// space, or an infinity spelled any way Go accepts. Anything else is not a bucket.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INFINITY = /^([+-]?)(inf|infinity)$/i;

/**
 * A float as Prometheus writes it (Go's strconv): sample values, counts and bounds in its JSON
 * ("+Inf", "-Inf" and "NaN" included, which JavaScript's Number() reads as NaN for the first two).
 */
export const parsePrometheusFloat = (text: string | undefined): number =>
  text === undefined ? Number.NaN : parseLe(text);

/** Parses an `le` label: "1", "1.0" and "1e0" are the same bound; "+Inf"/"inf" is infinity; "" is NaN. */
export function parseLe(le: string): number {
  const infinity = INFINITY.exec(le);
  if (infinity) return infinity[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  return DECIMAL.test(le) ? Number(le) : Number.NaN;
}

/** Relative difference below which two neighbouring counts are float noise (Prometheus's value). */
const PRECISION_TOLERANCE = 1e-12;

/**
 * Sorts by bound, merges buckets with equal bounds (le="1" and le="1.0" from a relabel or an
 * upgrade), then makes counts cumulative the way Prometheus does: first a neighbour that differs
 * only by float noise takes the previous count, then any dip (rate() over slightly misaligned
 * series) is flattened.
 */
export function normaliseBuckets(buckets: readonly Bucket[]): Bucket[] {
  const sorted = buckets.filter((b) => !Number.isNaN(b.upperBound)).sort((a, b) => a.upperBound - b.upperBound);
  const merged: Bucket[] = [];
  for (const bucket of sorted) {
    const last = merged[merged.length - 1];
    if (last && last.upperBound === bucket.upperBound) last.count += bucket.count;
    else merged.push({ ...bucket });
  }
  let previous = merged[0]?.count ?? 0;
  for (const bucket of merged.slice(1)) {
    const delta = Math.abs(bucket.count - previous);
    if (delta === 0 || bucket.isNativeCount) continue;
    if (delta / bucket.count <= PRECISION_TOLERANCE) bucket.count = previous;
    else previous = bucket.count;
  }
  let max = 0;
  for (const bucket of merged) {
    max = Math.max(max, bucket.count);
    bucket.count = max;
  }
  return merged;
}

export function histogramQuantile(q: number, input: readonly Bucket[]): QuantileEstimate {
  if (Number.isNaN(q)) return { kind: "value", value: Number.NaN };
  if (q < 0) return { kind: "value", value: Number.NEGATIVE_INFINITY };
  if (q > 1) return { kind: "value", value: Number.POSITIVE_INFINITY };
  const buckets = normaliseBuckets(input);
  if (buckets.length === 0 || buckets[buckets.length - 1]!.upperBound !== Number.POSITIVE_INFINITY) {
    return { kind: "none", reason: "no-inf-bucket" };
  }
  if (buckets.length < 2) return { kind: "none", reason: "too-few-buckets" };
  const observations = buckets[buckets.length - 1]!.count;
  if (!(observations > 0)) return { kind: "none", reason: "no-observations" };

  let rank = q * observations;
  let b = buckets.findIndex((bucket, i) => i < buckets.length - 1 && bucket.count >= rank);
  if (b === -1) b = buckets.length - 1;
  if (b === buckets.length - 1) return { kind: "atLeast", value: buckets[buckets.length - 2]!.upperBound };
  if (b === 0 && buckets[0]!.upperBound <= 0) return { kind: "value", value: buckets[0]!.upperBound };

  let bucketStart = 0;
  const bucketEnd = buckets[b]!.upperBound;
  let count = buckets[b]!.count;
  if (b > 0) {
    bucketStart = buckets[b - 1]!.upperBound;
    count -= buckets[b - 1]!.count;
    rank -= buckets[b - 1]!.count;
  }
  return { kind: "value", value: bucketStart + (bucketEnd - bucketStart) * (rank / count) };
}

/** Observations at or below `bound`, linearly interpolated inside its bucket when it is not a bucket bound. */
export function countAtOrBelow(bound: number, input: readonly Bucket[]): { count: number; isExact: boolean } {
  const buckets = normaliseBuckets(input);
  let previous: Bucket = { upperBound: 0, count: 0 };
  for (const bucket of buckets) {
    if (bucket.upperBound === bound) return { count: bucket.count, isExact: true };
    if (bucket.upperBound > bound) {
      if (bucket.upperBound === Number.POSITIVE_INFINITY) return { count: previous.count, isExact: false };
      const share = (bound - previous.upperBound) / (bucket.upperBound - previous.upperBound);
      return { count: previous.count + share * (bucket.count - previous.count), isExact: false };
    }
    previous = bucket;
  }
  return { count: previous.count, isExact: false };
}

/** The finite bucket bounds, for showing a user which thresholds can be counted exactly. */
export function finiteBounds(buckets: readonly Bucket[]): number[] {
  return normaliseBuckets(buckets)
    .map((b) => b.upperBound)
    .filter(Number.isFinite);
}

/** A native histogram's buckets as the query API writes them: lower and upper bound, count. */
export type NativeBucket = { lower: number; upper: number; count: number };

/**
 * Prometheus's reading of a native histogram's zero bucket [−z, z] (promql/quantile.go): when the
 * histogram has buckets above it only, it counts from 0; below it only, up to 0; with buckets on
 * both sides, or none, it spans [−z, z] and is interpolated across 0. Other buckets are as given.
 */
export function adjustZeroBucket(buckets: readonly NativeBucket[]): NativeBucket[] {
  const isZero = (b: NativeBucket) => b.lower < 0 && b.upper > 0;
  const positive = buckets.some((b) => !isZero(b) && b.lower >= 0 && b.count > 0);
  const negative = buckets.some((b) => !isZero(b) && b.upper <= 0 && b.count > 0);
  return buckets.map((b) => {
    if (!isZero(b)) return b;
    if (positive && !negative) return { ...b, lower: 0 };
    if (negative && !positive) return { ...b, upper: 0 };
    return b;
  });
}

/**
 * A native histogram as cumulative buckets, with a +Inf bucket holding the total: the shape
 * every view's math takes. The first bound is the lowest bucket's lower edge (negative when the
 * histogram has negative buckets), counting 0, and every gap between buckets is empty, so
 * histogramQuantile interpolates inside each native bucket's [lower, upper] as Prometheus 2.x's
 * histogram_quantile does, negative buckets and the zero bucket included (adjustZeroBucket), and
 * countAtOrBelow(t) − countAtOrBelow(0) is its histogram_fraction(0, t) × count. Prometheus 3
 * interpolates exponentially inside a native bucket, which can differ within one bucket's width
 * (about 9 % at the default schema 3).
 */
export function nativeToCumulative(input: readonly NativeBucket[], total: number): Bucket[] {
  const buckets = adjustZeroBucket(input.filter((b) => Number.isFinite(b.upper) && Number.isFinite(b.lower)));
  const sorted = buckets.filter((b) => b.count > 0).sort((a, b) => a.upper - b.upper);
  const out: Bucket[] = [];
  let running = 0;
  for (const bucket of sorted) {
    // Where a bucket does not start where the previous one ended, the gap is empty: a bound at
    // its lower edge keeps interpolation inside [lower, upper], as Prometheus does.
    const lower = bucket.lower;
    const previous = out[out.length - 1];
    if (!previous || previous.upperBound < lower) out.push({ upperBound: lower, count: running });
    running += bucket.count;
    const last = out[out.length - 1]!;
    if (last.upperBound === bucket.upper) last.count = running;
    else out.push({ upperBound: bucket.upper, count: running });
  }
  // Prometheus ranks against the histogram's count: where the buckets' sum differs from it only
  // by float noise, the count wins, or a rank that lands exactly on a bucket's edge would move
  // to the next bucket.
  const all = Math.abs(running - total) <= 1e-12 * Math.max(1, total) ? total : Math.max(running, total);
  for (const bucket of out) bucket.count = Math.min(bucket.count, all);
  out.push({ upperBound: Number.POSITIVE_INFINITY, count: all, isNativeCount: true });
  return out;
}
