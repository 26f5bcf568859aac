import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareEstimates, quantileDifference } from "./difference";
import { twoSidedZ } from "./normal";

const z = twoSidedZ(0.95);
/** A percentile estimate whose interval is a symmetric 95 % one, as in the examples. */
const estimate = (value: number, lower: number, upper: number) => ({
  ok: true as const,
  p: 0.95,
  n: 1000,
  value,
  lower,
  upper,
  coverage: 0.95,
});
const excludesZero = (lower: number | null, upper: number | null) =>
  (lower !== null && lower > 0) || (upper !== null && upper < 0);

describe("the significance shown and both intervals shown never disagree", () => {
  it("control 1000 [800, 1200] vs 800 [750, 850]: not significant, and the relative interval reaches past 0", () => {
    const d = quantileDifference(estimate(1000, 800, 1200), estimate(800, 750, 850));
    expect(d.isSignificant).toBe(false);
    expect(d.absoluteLower).toBeCloseTo(-406.155, 3); // Python: −200 ∓ 1.96·√(102.04² + 25.51²)
    expect(d.absoluteUpper).toBeCloseTo(6.155, 3);
    expect(d.relativeLower).toBeCloseTo(-0.340971, 6); // Fieller's interval for the ratio
    expect(d.relativeUpper).toBeCloseTo(0.0076375, 6);
  });

  it("control 500 [400, 600] vs 610 [605, 615]: significant, and the relative interval stays above 0", () => {
    const d = quantileDifference(estimate(500, 400, 600), estimate(610, 605, 615));
    expect(d.isSignificant).toBe(true);
    expect(d.absoluteLower).toBeCloseTo(9.875, 3);
    expect(d.relativeLower).toBeCloseTo(0.0164618, 6);
    expect(d.relativeUpper).toBeCloseTo(0.525205, 6);
  });

  it("seed example: 660 [640, 680] → 580 [565, 595] is −80 ms (−12 %) [−105, −55] ms, significant", () => {
    const d = quantileDifference(estimate(660, 640, 680), estimate(580, 565, 595));
    expect(d.absolute).toBe(-80);
    expect(d.relative).toBeCloseTo(-0.1212, 4);
    expect([d.absoluteLower, d.absoluteUpper]).toEqual([expect.closeTo(-105, 9), expect.closeTo(-55, 9)]);
    expect(d.isSignificant).toBe(true);
  });

  it("for any two estimates: significant ⇔ the absolute interval excludes 0 ⇔ the relative interval excludes 0", () => {
    const positive = fc.double({ min: 0.01, max: 10_000, noNaN: true });
    const spread = fc.double({ min: 0, max: 5_000, noNaN: true });
    fc.assert(
      fc.property(positive, spread, positive, spread, (c, seC, t, seT) => {
        const d = compareEstimates({ value: c, standardError: seC }, { value: t, standardError: seT });
        const absolute = d.absoluteLower > 0 || d.absoluteUpper < 0;
        expect(absolute).toBe(d.isSignificant);
        expect(excludesZero(d.relativeLower, d.relativeUpper)).toBe(d.isSignificant);
        // A bounded relative interval holds its point estimate.
        if (d.relativeLower !== null) expect(d.relative).toBeGreaterThanOrEqual(d.relativeLower - 1e-9);
        if (d.relativeUpper !== null) expect(d.relative).toBeLessThanOrEqual(d.relativeUpper + 1e-9);
      }),
      { numRuns: 20_000 },
    );
  });

  it("a control indistinguishable from 0 leaves the relative change unbounded, never falsely precise", () => {
    const d = compareEstimates({ value: 50, standardError: 300 / z }, { value: 40, standardError: 5 });
    expect(d).toMatchObject({ isSignificant: false, relativeLower: null, relativeUpper: null });
    const far = compareEstimates({ value: 50, standardError: 30 }, { value: 400, standardError: 1 });
    expect(far.isSignificant).toBe(true);
    expect(far.relativeUpper).toBeNull(); // unbounded above, but certainly above 0
    expect(far.relativeLower).toBeGreaterThan(0);
  });
});

describe("cost per 1k tokens: a test on the difference, not on overlapping intervals", () => {
  it("1.00 [0.96, 1.04] vs 1.07 [1.03, 1.11] overlap, yet +7 % is significant (z ≈ 2.4)", () => {
    const se = 0.04 / z;
    const d = compareEstimates({ value: 1, standardError: se }, { value: 1.07, standardError: se });
    expect(d.isSignificant).toBe(true);
    expect(d.relative).toBeCloseTo(0.07, 12);
    expect(d.relativeLower).toBeCloseTo(0.0130608, 6);
    expect(d.relativeUpper).toBeCloseTo(0.1303686, 6);
    expect(d.absolute / Math.hypot(se, se)).toBeCloseTo(2.425, 3);
  });
});
