import { describe, expect, it } from "vitest";
import { sampleRatioMismatch } from "./srm";
import { logGamma, upperRegularisedGamma } from "./special";
import { addToRatio, emptyRatio, ratioEstimate } from "./ratio";

describe("sample-ratio mismatch (hand-computed chi-square)", () => {
  it("a perfect 50/50 split: χ² = 0, p = 1", () => {
    expect(sampleRatioMismatch([500, 500], [50, 50])).toMatchObject({ chiSquare: 0, pValue: 1, isMismatch: false });
  });
  it("5100 / 4900 against 50/50: χ² = 4, p = erfc(√2) = 0.0455, not flagged", () => {
    const r = sampleRatioMismatch([5100, 4900], [50, 50]);
    expect(r.chiSquare).toBeCloseTo(4, 12);
    expect(r.pValue).toBeCloseTo(0.0455003, 6);
    expect(r.isMismatch).toBe(false);
  });
  it("5200 / 4800 against 50/50: χ² = 16, p = 6.3e-5, flagged", () => {
    const r = sampleRatioMismatch([5200, 4800], [50, 50]);
    expect(r.chiSquare).toBeCloseTo(16, 12);
    expect(r.pValue).toBeCloseTo(6.334248e-5, 9);
    expect(r.isMismatch).toBe(true);
  });
  it("three variants: χ² = 2400/1020 with 2 degrees of freedom, p = e^(−χ²/2)", () => {
    const r = sampleRatioMismatch([1000, 1000, 1060], [1, 1, 1]);
    expect(r.degreesOfFreedom).toBe(2);
    expect(r.pValue).toBeCloseTo(Math.exp(-2400 / 1020 / 2), 10);
  });
  it("uneven weights: 900 / 100 against 90/10 fit exactly", () => {
    expect(sampleRatioMismatch([900, 100], [90, 10]).pValue).toBe(1);
  });
  it("gamma helpers", () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(upperRegularisedGamma(1, 3)).toBeCloseTo(Math.exp(-3), 12);
  });
});

describe("ratio metrics", () => {
  it("cost per 1k tokens is Σcost / Σtokens, not a mean of ratios", () => {
    const acc = emptyRatio();
    addToRatio(acc, 0.03, 1000);
    addToRatio(acc, 0.12, 2000);
    expect(ratioEstimate(acc, 1000)!.value).toBeCloseTo(0.05, 12); // mean of ratios would say 0.045
  });
  it("has no value without tokens", () => expect(ratioEstimate(emptyRatio(), 1000)).toBeNull());
});
