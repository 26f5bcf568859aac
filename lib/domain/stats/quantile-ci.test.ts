import { describe, expect, it } from "vitest";
import { minimumSamples, quantileDifference, quantileWithCI, sortedRanks } from "./quantile-ci";
import { normalQuantile, twoSidedZ } from "./normal";

/** Deterministic uniform generator (mulberry32), so the simulation is the same every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

describe("percentiles with order-statistic intervals (hand-computed)", () => {
  it.each([
    [0.5, 5],
    [0.95, 77],
    [0.99, 397],
  ])("p=%s needs more than 4p/(1−p) samples: at least %d", (p, n) => expect(minimumSamples(p)).toBe(n));

  it("p50 of 1..100: value 50, ranks 50 ∓ 1.96·√25 → [40, 60]", () => {
    expect(quantileWithCI(sortedRanks(oneToHundred), 0.5)).toEqual({
      ok: true,
      p: 0.5,
      n: 100,
      value: 50,
      lower: 40,
      upper: 60,
    });
  });

  it("p95 of 1..100: value 95, ranks 95 ∓ 1.96·√4.75 → [90, 100]", () => {
    expect(quantileWithCI(sortedRanks(oneToHundred), 0.95)).toEqual({
      ok: true,
      p: 0.95,
      n: 100,
      value: 95,
      lower: 90,
      upper: 100,
    });
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

  it("covers the true p95 of a log-normal in about 95 % of 1000 simulated experiments", () => {
    const random = seeded(42);
    const mu = Math.log(400);
    const sigma = 0.5;
    const trueP95 = Math.exp(mu + sigma * normalQuantile(0.95));
    let covered = 0;
    for (let experiment = 0; experiment < 1000; experiment++) {
      const samples = Float64Array.from({ length: 500 }, () =>
        Math.exp(mu + sigma * normalQuantile(Math.min(1 - 1e-12, Math.max(1e-12, random())))),
      );
      samples.sort();
      const estimate = quantileWithCI(sortedRanks(samples), 0.95);
      if (estimate.ok && estimate.lower <= trueP95 && trueP95 <= estimate.upper) covered++;
    }
    expect(covered / 1000).toBeGreaterThanOrEqual(0.93);
    expect(covered / 1000).toBeLessThanOrEqual(0.98);
  });
});

describe("difference of percentiles", () => {
  it("seed example: 660 → 580 ms is −80 ms (−12 %), significant when the intervals are tight", () => {
    const control = { ok: true as const, p: 0.95, n: 5000, value: 660, lower: 640, upper: 680 };
    const treatment = { ok: true as const, p: 0.95, n: 5000, value: 580, lower: 565, upper: 595 };
    const d = quantileDifference(control, treatment);
    expect(d.absolute).toBe(-80);
    expect(d.relative).toBeCloseTo(-0.1212, 4);
    // se 40/3.92 and 30/3.92 → combined 12.76 → ±25.0 ms
    expect(d.absoluteUpper - d.absolute).toBeCloseTo(25, 1);
    expect(d.isSignificant).toBe(true);
  });

  it("overlapping wide intervals are not significant", () => {
    const control = { ok: true as const, p: 0.95, n: 100, value: 660, lower: 560, upper: 760 };
    const treatment = { ok: true as const, p: 0.95, n: 100, value: 640, lower: 540, upper: 740 };
    expect(quantileDifference(control, treatment).isSignificant).toBe(false);
  });
});
