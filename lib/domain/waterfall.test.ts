import { describe, expect, it } from "vitest";
import type { BudgetDocument } from "./budget";
import type { Bucket } from "./histogram";
import { buildWaterfall, componentKey, END_TO_END_KEY } from "./waterfall";

const source = { preset: "custom", metric: "m", matchers: {} };
const component = (name: string, p95: number | null) => ({ name, budgetMs: { p50: null, p95, p99: null }, source });
const budget: BudgetDocument = {
  indicator: "TTFT",
  targetMs: 300,
  quantile: 0.95,
  stages: [
    { name: "Network", components: [component("Network", 100)] },
    { name: "Safety ∥ RAG", components: [component("Safety", 60), component("RAG", 120)] },
    { name: "Queue", components: [component("Queue", 50)] },
  ],
};

/** Buckets where every observation sits in (a, b]: p95 interpolates to a + 0.95 (b − a). */
function uniformIn(a: number, b: number): Bucket[] {
  return [
    { upperBound: a, count: 0 },
    { upperBound: b, count: 100 },
    { upperBound: Number.POSITIVE_INFINITY, count: 100 },
  ];
}

describe("buildWaterfall", () => {
  const buckets = new Map<string, Bucket[]>([
    [componentKey(0, 0), uniformIn(0, 0.1)], // p95 95 ms: near its 100 ms budget
    [componentKey(1, 0), uniformIn(0, 0.04)], // 38 ms
    [componentKey(1, 1), uniformIn(0.1, 0.2)], // 195 ms: over 120 by 75
    [END_TO_END_KEY, uniformIn(0.2, 0.3)], // 295 ms
  ]);
  const model = buildWaterfall(budget, 0.95, buckets);

  it("measures each component and colours it against its budget", () => {
    const rows = model.stages.flatMap((s) =>
      s.components.map((c) => [c.name, c.actualMs && Math.round(c.actualMs * 10) / 10, c.status]),
    );
    expect(rows).toEqual([
      ["Network", 95, "warn"],
      ["Safety", 38, "ok"],
      ["RAG", 195, "over"],
      ["Queue", null, "nodata"],
    ]);
  });

  it("lays stages end to end, a parallel stage lasting as long as its slowest component", () => {
    expect(model.stages.map((s) => [s.startMs, s.durationMs])).toEqual([
      [0, 95],
      [95, 195],
      [290, null],
    ]);
    expect(model.stages[1]!.components.map((c) => c.onCriticalPath)).toEqual([false, true]);
    expect(model.stackedMs).toBe(290);
    expect(model.stackedBudgetMs).toBe(270);
  });

  it("calls out the worst offender and reports the measured end-to-end percentile", () => {
    expect(model.worstOffender).toEqual({ stage: "Safety ∥ RAG", component: "RAG", overByMs: 75, isLowerBound: false });
    expect(model.measuredEndToEndMs).toBeCloseTo(295, 9);
  });

  it("marks a percentile in the +Inf bucket as a lower bound", () => {
    const tail = new Map<string, Bucket[]>([
      [
        componentKey(0, 0),
        [
          { upperBound: 0.1, count: 90 },
          { upperBound: Number.POSITIVE_INFINITY, count: 100 },
        ],
      ],
    ]);
    const c = buildWaterfall(budget, 0.95, tail).stages[0]!.components[0]!;
    expect(c).toMatchObject({ actualMs: 100, isLowerBound: true });
  });
});

describe("lower bounds and missing data are never shown as precise", () => {
  /** p95 falls in +Inf: 90 of 100 observations at or below `boundSeconds`. */
  const tailAbove = (boundSeconds: number): Bucket[] => [
    { upperBound: boundSeconds / 2, count: 50 },
    { upperBound: boundSeconds, count: 90 },
    { upperBound: Number.POSITIVE_INFINITY, count: 100 },
  ];

  it.each([
    ["≥ 100 ms against a 100 ms budget", "unknown", 0.1, 100],
    ["≥ 50 ms against a 100 ms budget", "unknown", 0.05, 100],
    ["≥ 150 ms against a 100 ms budget", "over", 0.15, 100],
  ])("%s is %s", (_name, status, boundSeconds, budgetMs) => {
    const model = buildWaterfall(
      { ...budget, stages: [{ name: "Network", components: [component("Network", budgetMs)] }] },
      0.95,
      new Map([[componentKey(0, 0), tailAbove(boundSeconds)]]),
    );
    expect(model.stages[0]!.components[0]).toMatchObject({ actualMs: boundSeconds * 1000, isLowerBound: true, status });
  });

  it("a lower bound over budget is the worst offender, over by at least the difference", () => {
    const model = buildWaterfall(
      { ...budget, stages: [{ name: "Network", components: [component("Network", 100)] }] },
      0.95,
      new Map([[componentKey(0, 0), tailAbove(0.15)]]),
    );
    expect(model.worstOffender).toEqual({ stage: "Network", component: "Network", overByMs: 50, isLowerBound: true });
  });

  it("a stacked total with a lower bound or a stage without data is a lower bound and counts those stages", () => {
    const model = buildWaterfall(
      budget,
      0.95,
      new Map<string, Bucket[]>([
        [componentKey(0, 0), uniformIn(0, 0.1)], // 95 ms
        [componentKey(1, 1), tailAbove(0.2)], // ≥ 200 ms, Safety has no data
      ]),
    );
    expect(model.stages.map((s) => [s.durationMs, s.isLowerBound])).toEqual([
      [95, false],
      [200, true],
      [null, true],
    ]);
    expect(model).toMatchObject({ stackedMs: 295, stackedIsLowerBound: true, stagesWithoutData: ["Queue"] });
  });

  it("a fully measured waterfall is precise", () => {
    const all = new Map<string, Bucket[]>([
      [componentKey(0, 0), uniformIn(0, 0.1)],
      [componentKey(1, 0), uniformIn(0, 0.04)],
      [componentKey(1, 1), uniformIn(0.1, 0.2)],
      [componentKey(2, 0), uniformIn(0, 0.05)],
    ]);
    expect(buildWaterfall(budget, 0.95, all)).toMatchObject({ stackedIsLowerBound: false, stagesWithoutData: [] });
  });
});
