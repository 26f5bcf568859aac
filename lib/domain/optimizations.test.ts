import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  amdahlCeiling,
  amdahlSpeedup,
  combine,
  paretoFrontier,
  plan,
  planByBruteForce,
  PLANNER_LIMIT,
  resolveOptions,
  type Optimization,
  type Pipeline,
} from "./optimizations";

const sequential = (ms: Record<string, number>): Pipeline =>
  Object.entries(ms).map(([name, time]) => ({ name, components: [{ name, ms: time }] }));

const components = sequential({ network: 150, llm: 120, queue: 150 });
const catalog: Optimization[] = [
  { name: "A", component: "network", savingMs: 70, costPct: 30 },
  { name: "B", component: "llm", savingMs: 25, costPct: -15 },
  { name: "C", component: "llm", savingMs: 100, costPct: 20 },
  { name: "D", component: "queue", savingMs: 100, costPct: 50 },
  { name: "E", component: "llm", savingMs: 40, costPct: -30 },
];
const pick = (...names: string[]) =>
  resolveOptions(catalog, components).applicable.filter((o) => names.includes(o.name));

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
    const { best } = plan(catalog, components, { kind: "max-saving-under-cost", maxCostPct: 0 });
    expect(best!.names).toEqual(["A", "B", "C", "E"]);
    expect(best!.savingMs).toBe(190);
    expect(best!.costPct).toBeCloseTo((1.3 * 0.85 * 1.2 * 0.7 - 1) * 100, 9);
  });
  it("the cheapest way under 300 ms is B+C+E at −28.6 %", () => {
    const { best } = plan(catalog, components, { kind: "cheapest-meeting-target", targetMs: 300 });
    expect(best!.names).toEqual(["B", "C", "E"]);
    expect(best!.costPct).toBeCloseTo(-28.6, 1);
  });
  it("an unreachable target has no plan", () => {
    expect(plan(catalog, components, { kind: "cheapest-meeting-target", targetMs: 50 }).best).toBeNull();
  });
});

describe("parallel stages: a stage lasts as long as its slowest component", () => {
  const retrieval: Pipeline = [
    { name: "Embed", components: [{ name: "Embedding", ms: 40 }] },
    {
      name: "Retrieval",
      components: [
        { name: "Vector search", ms: 200 },
        { name: "Keyword search", ms: 150 },
      ],
    },
  ];
  const faster = (savingMs: number, component = "Vector search"): Optimization[] => [
    { name: "HNSW tuning", component, savingMs, costPct: 5 },
  ];

  it("vector 200 ∥ keyword 150: saving 120 on vector shortens the stage by 50, not 120", () => {
    const { best } = plan(faster(120), retrieval, { kind: "max-saving-under-cost", maxCostPct: 10 });
    expect(best).toMatchObject({ names: ["HNSW tuning"], savingMs: 50, endToEndMs: 190 });
  });

  it("a saving on the component off the critical path saves nothing", () => {
    const c = combine(resolveOptions(faster(100, "Keyword search"), retrieval).applicable, retrieval);
    expect(c.savingMs).toBe(0);
  });

  it("speeding up both parallel components saves down to the slower of the two", () => {
    const both: Optimization[] = [
      { name: "HNSW tuning", component: "Vector search", savingMs: 120, costPct: 5 },
      { name: "BM25 cache", component: "Keyword search", savingMs: 100, costPct: 5 },
    ];
    const c = combine(resolveOptions(both, retrieval).applicable, retrieval);
    expect(c).toMatchObject({ savingMs: 120, endToEndMs: 120 }); // stage = max(80, 50) = 80
  });

  it("keeps components of the same name in different stages apart, and says an option naming both is ambiguous", () => {
    const twoNetworks: Pipeline = [
      { name: "Ingress", components: [{ name: "Network", ms: 100 }] },
      { name: "Egress", components: [{ name: "Network", ms: 60 }] },
    ];
    const { applicable, notApplicable } = resolveOptions(
      [
        { name: "Edge", component: "Ingress / Network", savingMs: 70, costPct: 30 },
        { name: "Anycast", component: "Network", savingMs: 10, costPct: 1 },
        { name: "GPU", component: "Decode", savingMs: 10, costPct: 1 },
      ],
      twoNetworks,
    );
    expect(applicable.map((o) => [o.name, o.componentKey])).toEqual([["Edge", "0.0"]]);
    expect(notApplicable).toEqual([
      {
        name: "Anycast",
        reason: "“Network” names 2 components (Ingress / Network, Egress / Network): name the stage too",
      },
      { name: "GPU", reason: "no component called “Decode”" },
    ]);
    expect(combine(applicable, twoNetworks)).toMatchObject({ savingMs: 70, endToEndMs: 90 });
  });
});

describe("the planner's limits and speed", () => {
  const many: Optimization[] = Array.from({ length: PLANNER_LIMIT + 3 }, (_, i) => ({
    name: `opt-${i}`,
    component: ["network", "llm", "queue"][i % 3]!,
    savingMs: 5 + i,
    costPct: (i % 5) * 3 - 5,
  }));

  it(`searches the first ${PLANNER_LIMIT} applicable options exhaustively and names the ones it left out`, () => {
    const result = plan(many, components, { kind: "max-saving-under-cost", maxCostPct: 20 });
    expect(result.considered).toHaveLength(PLANNER_LIMIT);
    expect(result.leftOut.map((o) => o.name)).toEqual(["opt-20", "opt-21", "opt-22"]);
  });

  it("finds what brute force finds, on random pipelines and catalogs", () => {
    const pipeline = fc.array(fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(
        pipeline,
        fc.array(
          fc.record({
            stage: fc.nat(),
            component: fc.nat(),
            savingMs: fc.integer({ min: 0, max: 200 }),
            costPct: fc.integer({ min: -100, max: 100 }),
          }),
          { maxLength: 9 },
        ),
        fc.oneof(
          fc.record({
            kind: fc.constant("max-saving-under-cost" as const),
            maxCostPct: fc.integer({ min: -60, max: 60 }),
          }),
          fc.record({
            kind: fc.constant("cheapest-meeting-target" as const),
            targetMs: fc.integer({ min: 0, max: 900 }),
          }),
        ),
        (stages, rawOptions, goal) => {
          const p: Pipeline = stages.map((times, s) => ({
            name: `s${s}`,
            components: times.map((ms, c) => ({ name: `c${s}.${c}`, ms })),
          }));
          const options: Optimization[] = rawOptions.map((o, i) => {
            const stage = p[o.stage % p.length]!;
            const component = stage.components[o.component % stage.components.length]!;
            return { name: `o${i}`, component: component.name, savingMs: o.savingMs, costPct: o.costPct };
          });
          const fast = plan(options, p, goal).best;
          const slow = planByBruteForce(options, p, goal);
          expect(fast?.names ?? null).toEqual(slow?.names ?? null);
        },
      ),
      { numRuns: 300 },
    );
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
