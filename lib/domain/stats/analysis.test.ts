import { describe, expect, it } from "vitest";
import { newAccumulator, type ExperimentDesign, type VariantAccumulator } from "../experiments";
import { addToMoments } from "./mean";
import { addToRatio } from "./ratio";
import { analyse } from "./analysis";

const design: ExperimentDesign = {
  variants: [
    { name: "control", weight: 50 },
    { name: "treatment", weight: 50 },
  ],
  indicators: ["ttftMs"],
  judgedPercentile: 0.95,
  qualityMaxDrop: null,
};

/**
 * 1000 requests whose 950th-fastest TTFT is `p95Ms`, 1000 tokens each, costing `costPer1k` on
 * average with a per-request spread of `costSpread` (alternating above and below), quality `quality(i)`.
 */
function variant(
  p95Ms: number,
  costPer1k: number,
  costSpread = 0,
  quality?: (i: number) => number,
): VariantAccumulator {
  const acc = newAccumulator();
  for (let i = 1; i <= 1000; i++) {
    acc.requests++;
    acc.latency.ttftMs.add(i <= 950 ? (p95Ms * i) / 950 : p95Ms + (i - 950) * 2);
    addToRatio(acc.cost, costPer1k + (i % 2 ? costSpread : -costSpread), 1000);
    if (quality) addToMoments(acc.quality, quality(i));
  }
  return acc;
}

describe("experiment analysis", () => {
  it("the seed example: 12 % faster at TTFT p95 and 17 % cheaper — ship", () => {
    const analysis = analyse(
      { ...design, qualityMaxDrop: 0.01 },
      new Map([
        ["control", variant(660, 0.03, 0, () => 0.9)],
        ["treatment", variant(580, 0.025, 0, () => 0.9)],
      ]),
    );
    expect(analysis.verdict).toEqual({
      decision: "ship",
      sentence: "Treatment is 12 % faster at TTFT p95 and 17 % cheaper — ship.",
    });
    expect(analysis.guardrail).toMatchObject({ status: "passed", drop: 0 });
  });

  it("cost per 1k tokens is judged by a test on the difference: 1.00 [0.96, 1.04] vs 1.07 [1.03, 1.11] is a trade-off", () => {
    // Per-request spread 0.6454 over 1000 requests: a standard error of 0.0204, i.e. ±0.04 at 95 %.
    const analysis = analyse(
      design,
      new Map([
        ["control", variant(660, 1.0, 0.6454)],
        ["treatment", variant(580, 1.07, 0.6454)],
      ]),
    );
    const [control, treatment] = analysis.variants;
    expect(control!.costPer1kTokens!.lower).toBeCloseTo(0.96, 2);
    expect(treatment!.costPer1kTokens!.lower).toBeCloseTo(1.03, 2); // the intervals overlap…
    expect(analysis.cost).toMatchObject({ variant: "treatment", isSignificant: true }); // …yet the difference is real
    expect(analysis.cost!.relativeLower).toBeGreaterThan(0);
    expect(analysis.verdict.decision).toBe("trade-off");
    expect(analysis.verdict.sentence).toMatch(/12 % faster at TTFT p95 .* but 7 % more expensive per 1k tokens/);
  });

  it("judges the guardrail by its interval: a drop whose interval reaches past the allowance is not settled", () => {
    // Quality 0.90 ± 0.1 vs 0.895 ± 0.1 per request: a 0.5-point drop, ±0.88 points at 95 %, 1 point allowed.
    const analysis = analyse(
      { ...design, qualityMaxDrop: 0.01 },
      new Map([
        ["control", variant(660, 0.03, 0, (i) => 0.9 + (i % 2 ? 0.1 : -0.1))],
        ["treatment", variant(580, 0.025, 0, (i) => 0.895 + (i % 2 ? 0.1 : -0.1))],
      ]),
    );
    expect(analysis.guardrail).toMatchObject({ status: "unclear" });
    expect(analysis.guardrail!.dropUpper!).toBeGreaterThan(0.01);
    expect(analysis.verdict.decision).toBe("inconclusive");
  });

  it("a failed guardrail shows even when latency has too few samples", () => {
    const few = (p95: number, quality: number) => {
      const acc = newAccumulator();
      for (let i = 1; i <= 40; i++) {
        acc.requests++;
        acc.latency.ttftMs.add(p95 * (i / 40));
        addToMoments(acc.quality, quality + (i % 2 ? 0.001 : -0.001));
      }
      return acc;
    };
    const analysis = analyse(
      { ...design, qualityMaxDrop: 0.01 },
      new Map([
        ["control", few(660, 0.9)],
        ["treatment", few(580, 0.85)],
      ]),
    );
    expect(analysis.guardrail).toMatchObject({ status: "failed" });
    expect(analysis.verdict.decision).toBe("do-not-ship");
  });
});
