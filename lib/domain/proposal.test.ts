import { describe, expect, it } from "vitest";
import type { Bucket } from "./histogram";
import { proposeBudgets } from "./proposal";
import { predictEndToEnd, type StageHistograms } from "./whatif";

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

describe("the numbers an audit reproduced (issue 26, items 9 and 10)", () => {
  it("a parallel stage over the target is not called feasible: two components uniform on 0–100 ms, p50, 60 ms target", () => {
    // Each p50 is 50 ms, so the stacked p50s leave 10 ms of slack; but the stage is the max of the
    // two: P(max ≤ t) = (t/100)², so its p50 is 100·√0.5 = 70.71 ms, over the target.
    const p = proposeBudgets(
      pipeline([
        "Fan-out",
        [
          ["safety", 100],
          ["rag", 100],
        ],
      ]),
      { quantile: 0.5, targetMs: 60 },
    );
    const exact = 100 * Math.sqrt(0.5);
    expect(p.slackMs).toBeCloseTo(10, 9);
    expect(Math.abs(p.predictedEndToEndMs! - exact)).toBeLessThanOrEqual(p.predictedErrorBoundMs! + 1e-9);
    expect(p.fits).toBe(false);
    expect(p.headroomScale).toBe(0);
    expect(p.stages[0]!.components.map((c) => c.headroomMs)).toEqual([0, 0]);
    expect(p.cuts.length).toBeGreaterThan(0);
    // Cutting one by c: P(max ≤ 60) = (60 + c)/100 × 0.6 = 0.5 → c = 23.33 ms (to the 0.1 ms grid
    // and the convolution's bound).
    const [cut] = p.cuts;
    expect(cut!.cutMs).toBeGreaterThanOrEqual(23.3);
    expect(cut!.cutMs).toBeLessThan(25);
    expect(cut!.predictedEndToEndMs!).toBeLessThanOrEqual(60);
    expect(p.note).toMatch(/predicted end-to-end p50 of the pipeline as measured is 70\.7 ms/);
    expect(p.note).toMatch(/Cuts that close it alone: (safety|rag) −/);
    expect(p.note).not.toMatch(/tighten the headroom/);
    // One bucket (0, 100] each: the buckets allow anything from 0 to 100 ms, so they cannot
    // decide, and the (0, 100] buckets are where a bound would.
    expect(p.verdict).toBe("undecided");
    expect(p.bucketBounds!.lowerMs).toBeCloseTo(0, 6);
    expect(p.bucketBounds!.upperMs!).toBeGreaterThanOrEqual(100);
    expect(p.decidingBuckets[0]).toMatchObject({ fromMs: 0, toMs: 100 });
  });

  // Five components on the spanmetrics connector's default buckets (ms), each with 80 % of its
  // requests in (100, 200] and 20 % in (400, 800]: each p50 is 100 + 0.5/0.8 × 100 = 162.5 ms, so the
  // p50s stack to 812.5 ms. With k of the five slow (k ~ Binomial(5, 0.2)): every request at its
  // bucket's lower edge the sum is 500 + 300k, P(k = 0) = 0.328 < 0.5 ≤ P(k ≤ 1) = 0.737, so the p50
  // is 800 ms; at the upper edge 1000 + 600k, so 1,600 ms. Prometheus's reading lies between.
  const SPANMETRICS = [2, 4, 6, 8, 10, 50, 100, 200, 400, 800, 1000, 1400, 2000, 5000, 10_000, 15_000];
  const skewed: Bucket[] = [...SPANMETRICS.map((ms) => ms / 1000), Infinity].map((upperBound) => ({
    upperBound,
    count: upperBound >= 0.8 ? 1000 : upperBound >= 0.2 ? 800 : 0,
  }));
  const five: StageHistograms = Array.from({ length: 5 }, (_, i) => ({
    name: `Step ${i}`,
    components: [{ name: `span ${i}`, buckets: skewed }],
  }));

  it("says the buckets cannot decide when the target lies between their lower and upper edges", () => {
    const p = proposeBudgets(five, { quantile: 0.5, targetMs: 1000 });
    expect(p.measuredStackedMs).toBeCloseTo(812.5, 9);
    expect(p.predictedEndToEndMs!).toBeGreaterThan(1000);
    expect(p.fits).toBe(false); // Prometheus's reading
    expect(p.bucketBounds!.lowerMs).toBeLessThanOrEqual(800);
    expect(p.bucketBounds!.lowerMs).toBeGreaterThan(797);
    expect(p.bucketBounds!.upperMs!).toBeGreaterThanOrEqual(1600);
    expect(p.bucketBounds!.upperMs!).toBeLessThan(1602);
    expect(p.verdict).toBe("undecided");
    expect(p.decidingBuckets.map((b) => [b.fromMs, b.toMs])).toEqual([
      [100, 200],
      [100, 200],
      [100, 200],
    ]);
    expect(p.note).toMatch(/The buckets cannot decide: .* lower edge .* 79\d\.\d ms, at its upper edge 160\d\.\d ms/);
    expect(p.note).toMatch(/Bucket bounds inside span \d's \(100 ms, 200 ms\]/);
  });

  it("fits when even the upper edges are within the target", () => {
    const loose = proposeBudgets(five, { quantile: 0.5, targetMs: 1700 });
    expect(loose.verdict).toBe("fits");
    expect(loose.fits).toBe(true);
    expect(loose.decidingBuckets).toEqual([]);
    expect(loose.note).toMatch(/The buckets allow an end-to-end p50 of 79\d\.\d ms–160\d/);
  });

  it("does not fit when even every bucket's lower edge is over the target, though the stacked p50s are under", () => {
    // Two parallel components, half their requests in (0, 10] ms and half in (100, 110]: each p50
    // is 10 ms, but the stage's p50 needs F(t)² ≥ 0.5, which even at lower edges is only reached at 100 ms.
    const split: Bucket[] = [
      { upperBound: 0.01, count: 50 },
      { upperBound: 0.1, count: 50 },
      { upperBound: 0.11, count: 100 },
      { upperBound: Infinity, count: 100 },
    ];
    const p = proposeBudgets(
      [
        {
          name: "Fan-out",
          components: [
            { name: "a", buckets: split },
            { name: "b", buckets: split },
          ],
        },
      ],
      { quantile: 0.5, targetMs: 50 },
    );
    expect(p.slackMs).toBeCloseTo(40, 9);
    expect(p.bucketBounds!.lowerMs).toBeGreaterThan(99);
    expect(p.verdict).toBe("does-not-fit");
    expect(p.fits).toBe(false);
    expect(p.cuts.length).toBeGreaterThan(0);
  });

  describe("the prediction's own resolution (issue 26, item 10)", () => {
    // vLLM's queue buckets: 99,998 requests in (300, 800] ms and 2 in (1920, 7680] s; p95 775 ms.
    const queue: Bucket[] = [
      { upperBound: 0.3, count: 0 },
      { upperBound: 0.8, count: 99_998 },
      { upperBound: 1920, count: 99_998 },
      { upperBound: 7680, count: 100_000 },
      { upperBound: Infinity, count: 100_000 },
    ];
    const queues = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `queue ${i}`, buckets: queue }));

    it("a target inside the predicted p95 ± its bound is undecided, said with the bound, and sizes no cut", () => {
      // 100 queues in parallel: p95 = 300 + 500 × 0.95^(1/100)/0.99998 = 799.754 ms exactly.
      const stages: StageHistograms = [{ name: "Fan-out", components: queues(100) }];
      const predicted = predictEndToEnd(stages, { quantile: 0.95, targetMs: 800 })!;
      // Under the middle of the interval, above its lower end.
      const targetMs = Math.round((predicted.quantileMs - predicted.errorBoundMs / 2) * 1000) / 1000;
      expect(targetMs).toBeGreaterThan(predicted.quantileMs - predicted.errorBoundMs);
      const p = proposeBudgets(stages, { quantile: 0.95, targetMs });
      expect(p.slackMs).toBeGreaterThan(0);
      expect(p.verdict).toBe("undecided");
      expect(p.fits).toBe(false);
      expect(p.cuts).toEqual([]);
      expect(p.headroomScale).toBe(0);
      expect(p.note).toMatch(/is 799\.\d ms ± 0\.\d ms: the target lies inside what the prediction can resolve/);
      expect(p.note).toMatch(/no cut is sized from the prediction/);
      expect(p.note).not.toMatch(/ms over the/);
      expect(p.note).not.toMatch(/No single component can close it/);
    });

    it("50 queues in series against a 40 s target: the p95 is about 29.2 s, nothing is called over it and nothing cut", () => {
      // Monte Carlo (whatif.test.ts, 100,000 draws) puts the p95 at ~29,185 ms.
      const stages: StageHistograms = queues(50).map((c, i) => ({ name: `Stage ${i}`, components: [c] }));
      const p = proposeBudgets(stages, { quantile: 0.95, targetMs: 40_000 });
      expect(p.measuredStackedMs).toBeCloseTo(50 * (300 + (500 * 0.95) / 0.99998), 3);
      expect(p.predictedErrorBoundMs! / p.predictedEndToEndMs!).toBeLessThan(0.01);
      expect(p.predictedEndToEndMs! + p.predictedErrorBoundMs!).toBeLessThanOrEqual(40_000);
      expect(p.verdict).not.toBe("does-not-fit");
      expect(p.cuts).toEqual([]);
      expect(p.note).not.toMatch(/over the 40 s target/);
    });
  });
});
