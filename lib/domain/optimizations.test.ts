import { describe, expect, it } from "vitest";
import { amdahlCeiling, amdahlSpeedup, combine, paretoFrontier, plan, type Optimization } from "./optimizations";

const components = { network: 150, llm: 120, queue: 150 };
const catalog: Optimization[] = [
  { name: "A", component: "network", savingMs: 70, costPct: 30 },
  { name: "B", component: "llm", savingMs: 25, costPct: -15 },
  { name: "C", component: "llm", savingMs: 100, costPct: 20 },
  { name: "D", component: "queue", savingMs: 100, costPct: 50 },
  { name: "E", component: "llm", savingMs: 40, costPct: -30 },
];
const pick = (...names: string[]) => catalog.filter((o) => names.includes(o.name));

describe("combining optimizations (hand-solved)", () => {
  it("savings on one component stop at its time; cost factors multiply", () => {
    const c = combine(pick("B", "C", "E"), components);
    expect(c.savingMs).toBe(120); // 25 + 100 + 40 = 165, but the LLM stage only takes 120
    expect(c.costFactor).toBeCloseTo(0.85 * 1.2 * 0.7, 12);
    expect(c.endToEndMs).toBe(300);
  });
  it("savings on different components add", () => {
    expect(combine(pick("A", "D"), components).savingMs).toBe(170);
  });
  it("the most saving at no extra cost is A+B+C+E: 190 ms at −7.2 %", () => {
    const best = plan(catalog, components, { kind: "max-saving-under-cost", maxCostPct: 0 })!;
    expect(best.names).toEqual(["A", "B", "C", "E"]);
    expect(best.savingMs).toBe(190);
    expect(best.costPct).toBeCloseTo((1.3 * 0.85 * 1.2 * 0.7 - 1) * 100, 9);
  });
  it("the cheapest way under 300 ms is B+C+E at −28.6 %", () => {
    const best = plan(catalog, components, { kind: "cheapest-meeting-target", targetMs: 300 })!;
    expect(best.names).toEqual(["B", "C", "E"]);
    expect(best.costPct).toBeCloseTo(-28.6, 1);
  });
  it("an unreachable target has no plan", () => {
    expect(plan(catalog, components, { kind: "cheapest-meeting-target", targetMs: 50 })).toBeNull();
  });
});

describe("Amdahl's law (seed: model 70 % of the time)", () => {
  it.each([
    [2, 1.538],
    [10, 2.703],
  ])("making it %d× faster gives %s× overall", (s, overall) => expect(amdahlSpeedup(0.7, s)).toBeCloseTo(overall, 3));
  it("removing the 120 ms LLM stage of 420 ms at most gives 1.4×", () =>
    expect(amdahlCeiling(120, 420)).toBeCloseTo(1.4, 12));
});

describe("Pareto frontier of the seed's cost-versus-latency table", () => {
  it("keeps auto-scaling, edge deployment and smaller models", () => {
    const table = [
      { name: "Edge deployment", latencyMs: -70, costPct: 30 },
      { name: "Prefix caching", latencyMs: -25, costPct: -15 },
      { name: "Speculative decoding", latencyMs: -40, costPct: 20 },
      { name: "Smaller models", latencyMs: -50, costPct: -90 },
      { name: "INT8 quantization", latencyMs: -20, costPct: -30 },
      { name: "Auto-scaling", latencyMs: -100, costPct: 50 },
    ];
    expect(paretoFrontier(table).map((p) => p.name)).toEqual(["Auto-scaling", "Edge deployment", "Smaller models"]);
  });
});
