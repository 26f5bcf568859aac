import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DDSketch } from "@datadog/sketches-js";
import { LatencySamples, RAW_LIMIT, RELATIVE_ACCURACY } from "./latency-samples";
import { quantileWithCI } from "./quantile-ci";

function filled(values: Iterable<number>): LatencySamples {
  const samples = new LatencySamples();
  for (const v of values) samples.add(v);
  return samples;
}

describe("latency samples: exact below the raw limit, sketched above it", () => {
  it("answers small samples exactly", () => {
    const samples = filled([5, 1, 4, 2, 3, 10, 9, 8, 7, 6]);
    expect(samples.isExact).toBe(true);
    expect(samples.mean).toBe(5.5);
    const p50 = quantileWithCI(samples.ranks(), 0.5);
    expect(p50).toMatchObject({ ok: true, value: 5 });
  });

  it("stays within the sketch's relative accuracy beyond the limit", () => {
    const n = RAW_LIMIT * 3;
    const samples = filled(Array.from({ length: n }, (_, i) => 1 + i)); // 1..n
    expect(samples.isExact).toBe(false);
    for (const p of [0.5, 0.95, 0.99]) {
      const estimate = quantileWithCI(samples.ranks(), p);
      const exact = Math.ceil(p * n);
      expect(estimate.ok && Math.abs(estimate.value - exact) / exact).toBeLessThanOrEqual(RELATIVE_ACCURACY * 1.01);
    }
  });

  it("counting values per bin before handing them to the sketch changes no answer", () => {
    const values = Array.from({ length: RAW_LIMIT * 2 }, (_, i) => Math.exp(Math.sin(i) * 4 + 5) + (i % 7) * 1e-3);
    values.push(0, 1e-12, 1e12); // outside the counted range: handed over one by one
    const direct = new DDSketch({ relativeAccuracy: RELATIVE_ACCURACY });
    for (const v of values) direct.accept(v);
    const ranks = filled(values).ranks();
    for (const q of [0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1]) {
      const rank = 1 + q * (values.length - 1);
      expect(ranks.valueAtRank(rank)).toBe(direct.getValueAtQuantile(q));
    }
  });

  it("addMany is add for each value", () => {
    const values = Float64Array.from({ length: RAW_LIMIT + 5000 }, (_, i) => 1 + ((i * 7919) % 100_003));
    const one = filled(values);
    const many = new LatencySamples();
    many.addMany(values.subarray(0, 10));
    many.addMany(values.subarray(10));
    expect(many).toMatchObject({ count: one.count, sum: one.sum, isExact: false });
    for (const p of [0.5, 0.95, 0.99]) expect(quantileWithCI(many.ranks(), p)).toEqual(quantileWithCI(one.ranks(), p));
  });

  it("addMany of doubles bins every value where the sketch's own mapping does, at any magnitude", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1e-9, max: 1e12, noNaN: true }), { minLength: 1, maxLength: 3000 }),
        fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        (extra, scale) => {
          // Past the raw limit, so both sketch; the values straddle many exponents and bin edges.
          const values = Float64Array.from({ length: RAW_LIMIT + 2000 }, (_, i) => scale * (1 + (i % 997) / 997));
          const all = Float64Array.from([...values, ...extra, 0, -1]);
          const one = filled(all);
          const many = new LatencySamples();
          many.addMany(all);
          const [a, b] = [one.ranks(), many.ranks()];
          for (const q of [0, 0.001, 0.25, 0.5, 0.9, 0.95, 0.99, 0.9999, 1]) {
            const rank = 1 + Math.round(q * (all.length - 1));
            expect(b.valueAtRank(rank)).toBe(a.valueAtRank(rank));
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it("addSpread is add() of each evenly spread value: the same ranks, count and sum, raw or sketched", () => {
    const spread = (lo: number, hi: number, n: number) =>
      Array.from({ length: n }, (_, k) => lo + ((hi - lo) * (k + 0.5)) / n);
    const cases: { before: number[]; lo: number; hi: number; n: number }[] = [
      { before: [], lo: 0, hi: 5, n: 1000 }, // stays raw: exact
      { before: [], lo: 200, hi: 500, n: RAW_LIMIT * 3 }, // spills first
      { before: spread(0, 100, 60_000), lo: 0, hi: 1e-6, n: RAW_LIMIT }, // crosses the limit, tiny values
      { before: spread(0, 100, RAW_LIMIT + 1), lo: 1e-9, hi: 3e7, n: 250_000 }, // already sketched, wide range
      { before: spread(0, 100, RAW_LIMIT + 1), lo: 700, hi: 700, n: 500_000 }, // +Inf bucket: one value
      { before: [], lo: -5, hi: 5, n: RAW_LIMIT * 2 }, // negative, zero and positive bins
    ];
    for (const { before, lo, hi, n } of cases) {
      const one = filled([...before, ...spread(lo, hi, n)]);
      const bulk = filled(before);
      bulk.addSpread(lo, hi, n);
      expect(bulk.count).toBe(one.count);
      expect(bulk.isExact).toBe(one.isExact);
      expect(Math.abs(bulk.sum - one.sum)).toBeLessThanOrEqual(1e-9 * Math.abs(one.sum) + 1e-6);
      const [a, b] = [one.ranks(), bulk.ranks()];
      for (const q of [0, 1e-6, 0.001, 0.1, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1]) {
        const rank = 1 + Math.round(q * (one.count - 1));
        expect(b.valueAtRank(rank)).toBe(a.valueAtRank(rank));
      }
    }
  });

  it("addSpread of 20 million values gives the uniform's percentiles within the sketch's accuracy", () => {
    // 20M values evenly over (0, 1000] ms: the p-quantile is 1000·p (hand computation).
    const samples = new LatencySamples();
    samples.addSpread(0, 1000, 20_000_000);
    expect(samples).toMatchObject({ count: 20_000_000, sum: 20_000_000 * 500, isExact: false });
    for (const p of [0.25, 0.5, 0.95, 0.99]) {
      const estimate = quantileWithCI(samples.ranks(), p);
      expect(estimate.ok).toBe(true);
      if (!estimate.ok) continue;
      expect(Math.abs(estimate.value - 1000 * p) / (1000 * p)).toBeLessThanOrEqual(RELATIVE_ACCURACY * 1.01);
      expect(estimate.lower).toBeLessThanOrEqual(estimate.value);
      expect(estimate.upper).toBeGreaterThanOrEqual(estimate.value);
    }
  });

  it("round-trips through bytes, raw and sketched", () => {
    for (const n of [10, RAW_LIMIT + 500]) {
      const original = filled(Array.from({ length: n }, (_, i) => i + 1));
      const copy = LatencySamples.fromBytes(original.toBytes());
      expect(copy).toMatchObject({ count: n, sum: original.sum, isExact: original.isExact });
      const [a, b] = [quantileWithCI(copy.ranks(), 0.5), quantileWithCI(original.ranks(), 0.5)];
      expect(a.ok && b.ok && Math.abs(a.value - b.value) / b.value).toBeLessThan(1e-12);
    }
  });

  it("merges uploads: raw + raw, raw + sketch, sketch + sketch", () => {
    const a = filled(Array.from({ length: 1000 }, (_, i) => i + 1));
    a.merge(filled(Array.from({ length: 1000 }, (_, i) => i + 1001)));
    expect(a).toMatchObject({ count: 2000, isExact: true });
    const big = filled(Array.from({ length: RAW_LIMIT + 10 }, (_, i) => i + 1));
    a.merge(big);
    expect(a.count).toBe(2000 + RAW_LIMIT + 10);
    expect(a.isExact).toBe(false);
    const other = filled(Array.from({ length: RAW_LIMIT + 10 }, (_, i) => i + 1));
    other.merge(a);
    expect(other.count).toBe(2 * (RAW_LIMIT + 10) + 2000);
    expect(other.sum).toBeCloseTo(a.sum + ((RAW_LIMIT + 10) * (RAW_LIMIT + 11)) / 2, 0);
    const stored = LatencySamples.fromBytes(other.toBytes());
    stored.merge(filled(Array.from({ length: RAW_LIMIT + 1 }, (_, i) => i + 1)));
    expect(stored.count).toBe(other.count + RAW_LIMIT + 1);
  });
});
