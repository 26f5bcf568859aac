import { describe, expect, it } from "vitest";
import type { Bucket } from "./histogram";
import { proposeBudgets } from "./proposal";
import type { StageHistograms } from "./whatif";

// Known answers: components uniform on (0, N] ms have p50 = N/2, p95 = 0.95 N, p99 = 0.99 N and a
// spread (p99 − p50) of 0.49 N, so every proposed number can be worked out by hand.

const uniform = (maxMs: number, count = 1000): Bucket[] => [
  { upperBound: maxMs / 1000, count },
  { upperBound: Infinity, count },
];

const pipeline = (...stages: [string, [string, number][]][]): StageHistograms =>
  stages.map(([name, components]) => ({
    name,
    components: components.map(([c, max]) => ({ name: c, buckets: max > 0 ? uniform(max) : null })),
  }));

describe("proposing budgets", () => {
  it("keeps each measurement and shares the slack by spread: 115 ms as 49 : 98", () => {
    const p = proposeBudgets(pipeline(["A", [["a", 100]]], ["B", [["b", 200]]]), { quantile: 0.95, targetMs: 400 });
    // measured p95s: 95 + 190 = 285; slack 115; headroom 115 × 49/147 and 115 × 98/147
    expect(p.measuredStackedMs).toBeCloseTo(285, 9);
    expect(p.slackMs).toBeCloseTo(115, 9);
    const [a, b] = [p.stages[0]!.components[0]!, p.stages[1]!.components[0]!];
    expect(a.headroomMs).toBeCloseTo(115 / 3, 9);
    expect(b.headroomMs).toBeCloseTo((115 * 2) / 3, 9);
    expect(a.budgetMs).toEqual({ p50: 88.3, p95: 133.3, p99: 137.3 });
    expect(b.budgetMs).toEqual({ p50: 176.6, p95: 266.6, p99: 274.6 });
    expect(p.stackedMs).toBeCloseTo(399.9, 9);
    expect(p.fits).toBe(true);
    // At budget, each component is uniform on (headroom, N + headroom]: the sum's p95 is below the stack.
    expect(p.predictedEndToEndMs!).toBeLessThan(400);
    expect(p.predictedEndToEndMs!).toBeGreaterThan(115 + 150);
    expect(p.note).toMatch(/285 ms, 115 ms under the 400 ms target/);
    expect(p.cuts).toEqual([]);
  });

  it("gives parallel components the same headroom, so the slowest stays the critical path", () => {
    const p = proposeBudgets(
      pipeline(
        [
          "Fan-out",
          [
            ["safety", 100],
            ["rag", 200],
          ],
        ],
        ["LLM", [["llm", 100]]],
      ),
      {
        quantile: 0.95,
        targetMs: 400,
      },
    );
    const [safety, rag] = p.stages[0]!.components;
    expect(safety!.headroomMs).toBe(rag!.headroomMs);
    // slack 400 − (190 + 95) = 115 over spreads 98 (rag, the stage's slowest) and 49
    expect(rag!.headroomMs).toBeCloseTo((115 * 2) / 3, 9);
    expect(p.stackedMs).toBeLessThanOrEqual(400);
  });

  it("when the measurements do not fit, says by how much and which single cuts close it", () => {
    const p = proposeBudgets(pipeline(["A", [["a", 100]]], ["B", [["b", 200]]]), { quantile: 0.95, targetMs: 250 });
    expect(p.fits).toBe(false);
    expect(p.slackMs).toBeCloseTo(-35, 9);
    expect(p.stages[0]!.components[0]!.budgetMs.p95).toBe(95);
    expect(p.note).toMatch(/285 ms: 35 ms over the 250 ms target/);
    expect(p.cuts.map((c) => [c.component, c.cutMs]).sort()).toEqual([
      ["a", 35],
      ["b", 35],
    ]);
    // Each cut, checked by the convolution, brings the predicted p95 under the target.
    for (const cut of p.cuts) expect(cut.predictedEndToEndMs!).toBeLessThan(250);
  });

  it("a parallel component can only gain its lead over the next slowest", () => {
    // Stage p95s 190 (rag) and 180 (safety): cutting rag gains at most 10 ms.
    const p = proposeBudgets(
      pipeline([
        "Fan-out",
        [
          ["safety", 189.5],
          ["rag", 200],
        ],
      ]),
      {
        quantile: 0.95,
        targetMs: 170,
      },
    );
    expect(p.cuts).toEqual([]);
    expect(p.note).toMatch(/No single component can close it alone/);
  });

  it("leaves components without data out, and says so", () => {
    const p = proposeBudgets(
      pipeline([
        "A",
        [
          ["a", 100],
          ["ghost", 0],
        ],
      ]),
      { quantile: 0.95, targetMs: 200 },
    );
    expect(p.missing).toEqual(["ghost"]);
    expect(p.stages[0]!.components[1]!.budgetMs).toEqual({ p50: null, p95: null, p99: null });
    expect(p.note).toMatch(/No budget for 1 component without data: ghost/);
  });
});
