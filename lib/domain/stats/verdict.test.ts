import { describe, expect, it } from "vitest";
import { verdictOf, type VerdictInput } from "./verdict";

const faster12 = { relative: 580 / 660 - 1, relativeLower: -0.155, relativeUpper: -0.085, isSignificant: true };
const cheaper17 = { relative: 0.025 / 0.03 - 1, relativeLower: -0.2, relativeUpper: -0.13, isSignificant: true };
const passed = { status: "passed" as const, description: "quality fell 0.0 points [−0.4, 0.4], at most 1.0 allowed" };
const input = (overrides: Partial<VerdictInput>): VerdictInput => ({
  srmMismatch: false,
  label: "TTFT p95",
  latency: faster12,
  latencyReason: null,
  cost: cheaper17,
  guardrail: passed,
  ...overrides,
});

describe("verdict", () => {
  it("the seed example: 660 → 580 ms at p95, $0.030 → $0.025 per 1k tokens", () => {
    expect(verdictOf(input({}))).toEqual({
      decision: "ship",
      sentence: "Treatment is 12 % faster at TTFT p95 and 17 % cheaper — ship.",
    });
  });

  it("faster but significantly dearer is a trade-off that states both numbers, never a ship", () => {
    const dearer7 = { relative: 0.07, relativeLower: 0.013, relativeUpper: 0.13, isSignificant: true };
    expect(verdictOf(input({ cost: dearer7 }))).toEqual({
      decision: "trade-off",
      sentence:
        "Trade-off: treatment is 12 % faster at TTFT p95 [−15.5 %, −8.5 %] but 7 % more expensive per 1k tokens [+1.3 %, +13.0 %]. Weigh them on the cost-versus-latency view.",
    });
  });

  it("cheaper but significantly slower is a trade-off too", () => {
    const slower5 = { relative: 0.05, relativeLower: 0.02, relativeUpper: 0.08, isSignificant: true };
    expect(verdictOf(input({ latency: slower5 }))).toMatchObject({
      decision: "trade-off",
      sentence: expect.stringMatching(
        /^Trade-off: treatment is 17 % cheaper per 1k tokens .* but 5 % slower at TTFT p95/,
      ),
    });
  });

  it("a cost change within the noise does not stop a ship, and says so", () => {
    const noisy = { relative: 0.02, relativeLower: -0.01, relativeUpper: 0.05, isSignificant: false };
    expect(verdictOf(input({ cost: noisy }))).toEqual({
      decision: "ship",
      sentence: "Treatment is 12 % faster at TTFT p95; its cost per 1k tokens is within the noise (+2 %) — ship.",
    });
  });

  it("a failed guardrail is never hidden behind “not enough samples”", () => {
    const failed = {
      status: "failed" as const,
      description: "quality fell 3.0 points [2.1, 3.9], at most 1.0 allowed",
    };
    expect(
      verdictOf(
        input({
          latency: null,
          latencyReason: "p95 needs at least 77 samples, this variant has 40",
          guardrail: failed,
        }),
      ),
    ).toEqual({
      decision: "do-not-ship",
      sentence: "Do not ship: the quality guardrail failed (quality fell 3.0 points [2.1, 3.9], at most 1.0 allowed).",
    });
  });

  it("an unsettled guardrail holds back a faster treatment", () => {
    const unclear = {
      status: "unclear" as const,
      description: "quality fell 0.6 points [−0.2, 1.4], at most 1.0 allowed",
    };
    expect(verdictOf(input({ guardrail: unclear }))).toEqual({
      decision: "inconclusive",
      sentence:
        "Inconclusive: treatment is 12 % faster at TTFT p95, but the quality guardrail is not settled (quality fell 0.6 points [−0.2, 1.4], at most 1.0 allowed). Keep collecting.",
    });
  });

  it("says inconclusive when the difference is within the noise", () => {
    const noise = { relative: -0.03, relativeLower: -0.08, relativeUpper: 0.02, isSignificant: false };
    expect(verdictOf(input({ latency: noise, cost: null })).decision).toBe("inconclusive");
  });

  it("says what is missing when there are too few samples", () => {
    expect(
      verdictOf(input({ latency: null, latencyReason: "p95 needs at least 77 samples, this variant has 40" })),
    ).toEqual({
      decision: "inconclusive",
      sentence:
        "Inconclusive: not enough samples yet to judge TTFT p95 (p95 needs at least 77 samples, this variant has 40).",
    });
  });

  it("gives no verdict at all on a sample-ratio mismatch", () => {
    expect(verdictOf(input({ srmMismatch: true })).decision).toBe("no-verdict");
  });

  it("slower and not cheaper: do not ship", () => {
    const slower = { relative: 0.08, relativeLower: 0.03, relativeUpper: 0.13, isSignificant: true };
    expect(verdictOf(input({ latency: slower, cost: null }))).toEqual({
      decision: "do-not-ship",
      sentence: "Do not ship: treatment is 8 % slower at TTFT p95 [+3.0 %, +13.0 %].",
    });
  });
});
