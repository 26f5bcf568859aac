import { describe, expect, it } from "vitest";
import { minimumSamples, orderStatisticInterval, quantileWithCI, sortedRanks } from "./quantile-ci";
import { normalQuantile, twoSidedZ } from "./normal";
import { seeded } from "./seeded";

const oneToHundred = Float64Array.from({ length: 100 }, (_, i) => i + 1);

describe("normal quantiles", () => {
  it.each([
    [0.975, 1.959963984540054],
    [0.95, 1.6448536269514722],
    [0.5, 0],
    [0.001, -3.090232306167813],
  ])("Φ⁻¹(%s) = %s", (p, z) => expect(normalQuantile(p)).toBeCloseTo(z, 8));
  it("z for 95 % two-sided", () => expect(twoSidedZ(0.95)).toBeCloseTo(1.959964, 6));
});

// Known answers from exact rational binomial sums (Python fractions): the lower rank l is the
// largest with P(B ≤ l − 1) ≤ 2.5 %, the upper rank u the smallest with P(B ≥ u) ≤ 2.5 %,
// B ~ Binomial(n, p) the number of samples at or below the true quantile.
describe("order-statistic intervals from exact binomial ranks", () => {
  it.each([
    [100, 0.5, 40, 61, 0.9647997997822951],
    [100, 0.95, 90, 100, 0.9826070607121813],
    [77, 0.95, 69, 77, 0.966125907456105],
    [20, 0.5, 6, 15, 0.9586105346679688],
    [200, 0.95, 184, 197, 0.9671521638567258],
    [500, 0.95, 465, 485, 0.960498735515962],
    [1000, 0.99, 983, 997, 0.9760947634979771],
  ])("n=%d, p=%s: ranks [%d, %d], coverage %s", (n, p, lowerRank, upperRank, coverage) => {
    const interval = orderStatisticInterval(n, p, 0.95)!;
    expect(interval).toMatchObject({ lowerRank, upperRank });
    expect(interval.coverage).toBeCloseTo(coverage, 9);
  });

  it("has no two-sided 95 % interval inside 5 samples for the median (0.5⁵ > 2.5 %)", () => {
    expect(orderStatisticInterval(5, 0.5, 0.95)).toBeNull();
    expect(orderStatisticInterval(6, 0.5, 0.95)).toMatchObject({ lowerRank: 1, upperRank: 6 });
  });

  it("stays exact and fast for ten million samples (normal approximation as a cross-check)", () => {
    const n = 10_000_000;
    const interval = orderStatisticInterval(n, 0.95, 0.95)!;
    const spread = 1.959964 * Math.sqrt(n * 0.95 * 0.05);
    expect(Math.abs(interval.lowerRank - (n * 0.95 - spread))).toBeLessThan(3);
    expect(Math.abs(interval.upperRank - (n * 0.95 + spread))).toBeLessThan(3);
    expect(interval.coverage).toBeGreaterThanOrEqual(0.95);
  });
});

describe("percentiles with their intervals", () => {
  it.each([
    [0.5, 6],
    [0.95, 77],
    [0.99, 397],
  ])("p=%s needs at least %d samples (more than 4p/(1−p), and both ranks inside the sample)", (p, n) =>
    expect(minimumSamples(p)).toBe(n),
  );

  it("p50 of 1..100: value 50, interval [40, 61]", () => {
    expect(quantileWithCI(sortedRanks(oneToHundred), 0.5)).toMatchObject({
      ok: true,
      p: 0.5,
      n: 100,
      value: 50,
      lower: 40,
      upper: 61,
    });
  });

  it("p95 of 1..100: value 95, interval [90, 100]", () => {
    expect(quantileWithCI(sortedRanks(oneToHundred), 0.95)).toMatchObject({ value: 95, lower: 90, upper: 100 });
  });

  it("refuses p95 on 76 samples and says how many it needs", () => {
    expect(quantileWithCI(sortedRanks(oneToHundred.slice(0, 76)), 0.95)).toEqual({
      ok: false,
      p: 0.95,
      n: 76,
      needed: 77,
      reason: "p95 needs at least 77 samples, this variant has 76",
    });
  });

  it("covers the true p95 of a log-normal as often as the exact binomial coverage says (4000 seeded experiments)", () => {
    const random = seeded(42);
    const mu = Math.log(400);
    const sigma = 0.5;
    const trueP95 = Math.exp(mu + sigma * normalQuantile(0.95));
    const experiments = 4000;
    const n = 200;
    let covered = 0;
    for (let experiment = 0; experiment < experiments; experiment++) {
      const samples = Float64Array.from({ length: n }, () =>
        Math.exp(mu + sigma * normalQuantile(Math.min(1 - 1e-12, Math.max(1e-12, random())))),
      );
      samples.sort();
      const estimate = quantileWithCI(sortedRanks(samples), 0.95);
      if (estimate.ok && estimate.lower <= trueP95 && trueP95 <= estimate.upper) covered++;
    }
    const exact = orderStatisticInterval(n, 0.95, 0.95)!.coverage; // 0.967
    const threeStandardErrors = 3 * Math.sqrt((exact * (1 - exact)) / experiments); // ±0.0085
    expect(exact).toBeGreaterThanOrEqual(0.95);
    expect(Math.abs(covered / experiments - exact)).toBeLessThanOrEqual(threeStandardErrors);
  });
});
