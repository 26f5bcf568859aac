import { describe, expect, it } from "vitest";
import { verdictOf } from "./verdict";

describe("verdict", () => {
  it("the seed example: 660 → 580 ms at p95, $0.030 → $0.025 per 1k tokens", () => {
    const verdict = verdictOf({
      srmMismatch: false,
      latency: { percentile: "p95", relative: 580 / 660 - 1, isSignificant: true },
      cost: { relative: 0.025 / 0.03 - 1, isSignificant: true },
      guardrail: { passed: true, description: "accuracy within 1 point" },
    });
    expect(verdict).toEqual({ decision: "ship", sentence: "Treatment is 12 % faster at p95 and 17 % cheaper — ship." });
  });
  it("says inconclusive when the difference is within the noise", () => {
    expect(
      verdictOf({
        srmMismatch: false,
        latency: { percentile: "p95", relative: -0.03, isSignificant: false },
        cost: null,
        guardrail: null,
      }).decision,
    ).toBe("inconclusive");
  });
  it("gives no verdict at all on a sample-ratio mismatch", () => {
    expect(
      verdictOf({
        srmMismatch: true,
        latency: { percentile: "p95", relative: -0.3, isSignificant: true },
        cost: null,
        guardrail: null,
      }).decision,
    ).toBe("no-verdict");
  });
  it("a failed quality guardrail blocks a faster treatment", () => {
    const v = verdictOf({
      srmMismatch: false,
      latency: { percentile: "p95", relative: -0.2, isSignificant: true },
      cost: null,
      guardrail: { passed: false, description: "accuracy fell 3 points, 1 allowed" },
    });
    expect(v).toEqual({
      decision: "do-not-ship",
      sentence: "Do not ship: the quality guardrail failed (accuracy fell 3 points, 1 allowed).",
    });
  });
  it("faster but significantly dearer is a trade-off, not a ship", () => {
    expect(
      verdictOf({
        srmMismatch: false,
        latency: { percentile: "p95", relative: -0.1, isSignificant: true },
        cost: { relative: 0.3, isSignificant: true },
        guardrail: null,
      }).decision,
    ).toBe("inconclusive");
  });
});
