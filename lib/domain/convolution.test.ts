import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convolve, convolveDirect } from "./convolution";

// The FFT path against the direct sum: the same masses within the error it reports, never a
// negative mass (a CDF that goes down would break the what-if bound's accounting), and the total
// kept at Σa·Σb.

describe("convolve", () => {
  it("gives the hand-computed convolution through the FFT and directly", () => {
    // ½(δ0 + δ1) ∗ ¼(δ0 + 2δ1 + δ2) = ⅛(δ0 + 3δ1 + 3δ2 + δ3)
    const a = Float64Array.of(0.5, 0.5);
    const b = Float64Array.of(0.25, 0.5, 0.25);
    for (const method of ["fft", "direct"] as const) {
      const { p } = convolve(a, b, method);
      expect([...p].map((x) => Number(x.toFixed(15)))).toEqual([0.125, 0.375, 0.375, 0.125]);
    }
  });

  it("the sum of 1000 fair coins: the binomial's exact masses, through the FFT", () => {
    // Two binomial(500, ½) pmfs convolve to binomial(1000, ½): P(500) = C(1000, 500)/2^1000.
    const binomial = (n: number) => {
      const p = new Float64Array(n + 1);
      p[0] = 2 ** -n;
      for (let k = 1; k <= n; k++) p[k] = (p[k - 1]! * (n - k + 1)) / k;
      return p;
    };
    const { p, error } = convolve(binomial(500), binomial(500), "fft");
    const exact = binomial(1000);
    expect(p[500]).toBeCloseTo(0.025225018178360875, 14);
    let l1 = 0;
    for (let k = 0; k <= 1000; k++) l1 += Math.abs(p[k]! - exact[k]!);
    expect(l1).toBeLessThanOrEqual(error);
    expect(error).toBeLessThan(1e-11);
    // Masses far below the round-off are 0, not noise: the ends are exactly empty.
    expect(p[0]).toBe(0);
    expect(p[1000]).toBe(0);
  });

  it("through the FFT: within the reported error of the direct sum, no negative mass, the same total (property)", () => {
    const mass = fc.oneof(fc.constant(0), fc.double({ min: 1e-300, max: 1, noNaN: true }));
    const vector = fc.array(mass, { minLength: 1, maxLength: 400 }).map((v) => Float64Array.from(v));
    fc.assert(
      fc.property(vector, vector, (a, b) => {
        const exact = convolveDirect(a, b);
        const { p, error } = convolve(a, b, "fft");
        expect(p.length).toBe(exact.length);
        let l1 = 0;
        let sum = 0;
        let exactSum = 0;
        for (let k = 0; k < p.length; k++) {
          expect(p[k]).toBeGreaterThanOrEqual(0);
          l1 += Math.abs(p[k]! - exact[k]!);
          sum += p[k]!;
          exactSum += exact[k]!;
        }
        // The direct sum's own rounding is ~ε per term: far inside the FFT's bound.
        expect(l1).toBeLessThanOrEqual(error + 1e-13 * exactSum);
        expect(Math.abs(sum - exactSum)).toBeLessThanOrEqual(1e-12 * Math.max(1, exactSum));
      }),
      { numRuns: 200 },
    );
  });

  it("counts underflow in its error: masses near 1e-300 whose products are subnormal (a counterexample fast-check found)", () => {
    const a = Float64Array.from([1e-300, 1.845366239593575e-70]);
    const b = Float64Array.from([1.3386655592823137e-254, 0, 0, 0]);
    const exact = convolveDirect(a, b);
    const { p, error } = convolve(a, b, "fft");
    let l1 = 0;
    for (let k = 0; k < p.length; k++) l1 += Math.abs(p[k]! - exact[k]!);
    expect(l1).toBeLessThanOrEqual(error);
  });

  it("chooses the direct sum for short vectors and the FFT for long ones", () => {
    const short = new Float64Array(8).fill(1 / 8);
    const long = new Float64Array(4096).fill(1 / 4096);
    expect(convolve(short, short).error).toBe(0);
    expect(convolve(long, long).error).toBeGreaterThan(0);
  });
});
