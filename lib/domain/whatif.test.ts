import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { histogramQuantile, type Bucket } from "./histogram";
import { seeded } from "./stats/seeded";
import { locateComponent, parseChange, predictEndToEnd, type StageHistograms } from "./whatif";

// Known answers for the predictor: large samples whose exact percentiles we can count, and a
// parallel stage whose percentile has a closed form.

const BOUNDS = [
  0.002, 0.004, 0.006, 0.008, 0.01, 0.0125, 0.015, 0.0175, 0.02, 0.025, 0.03, 0.035, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09,
  0.1, 0.11, 0.12, 0.13, 0.14, 0.15, 0.175, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9,
  1, 1.25, 1.5, 2, 2.5, 3, 5, 10,
];

function histogramOf(samplesMs: Float64Array, bounds = BOUNDS): Bucket[] {
  const counts = new Array<number>(bounds.length + 1).fill(0);
  for (const ms of samplesMs) {
    const s = ms / 1000;
    let i = 0;
    while (i < bounds.length && s > bounds[i]!) i++;
    counts[i]!++;
  }
  let cumulative = 0;
  return [...bounds, Number.POSITIVE_INFINITY].map((upperBound, i) => ({
    upperBound,
    count: (cumulative += counts[i]!),
  }));
}

function quantileOfSample(values: Float64Array, q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.ceil(q * sorted.length) - 1]!;
}

const N = 1_000_000;
const random = seeded(20261122);
function normal(): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
const logNormal = (medianMs: number, sigma: number) =>
  Float64Array.from({ length: N }, () => medianMs * Math.exp(sigma * normal()));

describe("predictEndToEnd", () => {
  it("predicts the p95 of the sum of two independent log-normal stages within 2 % of a million-request sample", () => {
    const rag = logNormal(90, 0.35);
    const llm = logNormal(120, 0.25);
    const sum = rag.map((v, i) => v + llm[i]!);
    const exact = quantileOfSample(sum, 0.95);
    const stages: StageHistograms = [
      { name: "Retrieve", components: [{ name: "RAG", buckets: histogramOf(rag) }] },
      { name: "Generate", components: [{ name: "LLM", buckets: histogramOf(llm) }] },
    ];
    const prediction = predictEndToEnd(stages, { quantile: 0.95, targetMs: 300 })!;
    expect(Math.abs(prediction.quantileMs - exact) / exact).toBeLessThan(0.02);
    expect(prediction.errorBoundMs).toBeLessThan(exact * 0.005);
    // Attainment of a 300 ms target against the sample's own count.
    const within = sum.filter((v) => v <= 300).length / N;
    expect(Math.abs(prediction.attainment - within)).toBeLessThan(0.01);
    // And the sum of the stage p95s, which percentiles do not obey, is clearly higher.
    const stacked = quantileOfSample(rag, 0.95) + quantileOfSample(llm, 0.95);
    expect(stacked).toBeGreaterThan(exact * 1.05);
  });

  it("predicts the p95 of a parallel stage as the p95 of the max: two exponentials, F(t)² = 0.95", () => {
    const exponential = (meanMs: number) => Float64Array.from({ length: N }, () => -meanMs * Math.log(1 - random()));
    const bounds = Array.from({ length: 300 }, (_, i) => (i + 1) * 0.005);
    const stages: StageHistograms = [
      {
        name: "Parallel",
        components: [
          { name: "Safety", buckets: histogramOf(exponential(100), bounds) },
          { name: "RAG", buckets: histogramOf(exponential(100), bounds) },
        ],
      },
    ];
    const exact = -100 * Math.log(1 - Math.sqrt(0.95));
    const prediction = predictEndToEnd(stages, { quantile: 0.95, targetMs: 350 })!;
    expect(Math.abs(prediction.quantileMs - exact) / exact).toBeLessThan(0.01);
    // P(max ≤ 350) = (1 − e^(−3.5))².
    expect(prediction.attainment).toBeCloseTo((1 - Math.exp(-3.5)) ** 2, 2);
  });

  it("agrees with histogram_quantile for a single component, within its error bound", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 4, maxLength: 12 }),
        fc.constantFrom(0.5, 0.9, 0.95, 0.99),
        (increments, q) => {
          const bounds = increments.slice(0, -1).map((_, i) => (i + 1) * 0.05);
          let c = 0;
          const buckets = [...bounds, Number.POSITIVE_INFINITY].map((upperBound, i) => ({
            upperBound,
            count: (c += increments[i]! + (i === 0 ? 1 : 0)),
          }));
          const reference = histogramQuantile(q, buckets);
          const prediction = predictEndToEnd([{ name: "Only", components: [{ name: "x", buckets }] }], {
            quantile: q,
            targetMs: 100,
          })!;
          if (reference.kind === "value") {
            expect(Math.abs(prediction.quantileMs - reference.value * 1000)).toBeLessThanOrEqual(
              prediction.errorBoundMs + 1e-6,
            );
          } else expect(reference.kind).toBe("atLeast");
        },
      ),
      { numRuns: 200 },
    );
  });

  it("applies a change: −50 ms shifts a component, ×0.7 scales it, and the other stages stay", () => {
    const buckets = histogramOf(logNormal(200, 0.2));
    const fixed = histogramOf(Float64Array.from({ length: 1000 }, () => 100 + random() * 0.001));
    const stages: StageHistograms = [
      { name: "A", components: [{ name: "RAG", buckets }] },
      { name: "B", components: [{ name: "Fixed", buckets: fixed }] },
    ];
    const base = predictEndToEnd(stages, { quantile: 0.95, targetMs: 400 })!;
    const shifted = predictEndToEnd(stages, {
      quantile: 0.95,
      targetMs: 400,
      changes: [{ stage: 0, component: 0, label: "RAG", kind: "shift", ms: -50 }],
    })!;
    expect(base.quantileMs - shifted.quantileMs).toBeCloseTo(50, -0.5);
    const scaled = predictEndToEnd(stages, {
      quantile: 0.95,
      targetMs: 400,
      changes: [{ stage: 0, component: 0, label: "RAG", kind: "scale", factor: 0.7 }],
    })!;
    // The fixed 100 ms stage stays: (base − 100) × 0.7 + 100.
    expect(scaled.quantileMs).toBeCloseTo((base.quantileMs - 100) * 0.7 + 100, -0.5);
    expect(scaled.attainment).toBeGreaterThan(base.attainment);
  });

  it("says what it could not see: a component without data, a tail in the +Inf bucket, nothing at all", () => {
    const tail: Bucket[] = [
      { upperBound: 0.1, count: 90 },
      { upperBound: Number.POSITIVE_INFINITY, count: 100 },
    ];
    const prediction = predictEndToEnd(
      [
        {
          name: "S",
          components: [
            { name: "a", buckets: tail },
            { name: "b", buckets: null },
          ],
        },
      ],
      { quantile: 0.95, targetMs: 50 },
    )!;
    expect(prediction.missing).toEqual(["b"]);
    expect(prediction.isLowerBound).toBe(true);
    expect(prediction.quantileMs).toBeCloseTo(100, 0);
    expect(
      predictEndToEnd([{ name: "S", components: [{ name: "a", buckets: null }] }], { quantile: 0.95, targetMs: 1 }),
    ).toBeNull();
  });
});

describe("changes", () => {
  it("reads milliseconds with a sign and factors with ×, x or *", () => {
    expect(parseChange("RAG retrieval:-50")).toEqual({ target: "RAG retrieval", kind: "shift", ms: -50 });
    expect(parseChange("rag:+20ms")).toEqual({ target: "rag", kind: "shift", ms: 20 });
    expect(parseChange("rag:×0.7")).toEqual({ target: "rag", kind: "scale", factor: 0.7 });
    expect(parseChange("rag:x0.7")).toEqual({ target: "rag", kind: "scale", factor: 0.7 });
    expect(parseChange("Retrieval / RAG:*1.5")).toEqual({ target: "Retrieval / RAG", kind: "scale", factor: 1.5 });
  });

  it("refuses what it cannot read, saying how to write it", () => {
    expect(parseChange("rag:50")).toMatchObject({ error: expect.stringMatching(/with a sign/) });
    expect(parseChange("rag")).toMatchObject({ error: expect.stringMatching(/<component>:<change>/) });
    expect(parseChange("rag:×11")).toMatchObject({ error: expect.stringMatching(/between 0 and 10/) });
  });

  it("finds the component by name, or by stage and name when names repeat", () => {
    const stages = [
      { name: "Ingress", components: [{ name: "Network" }] },
      { name: "Egress", components: [{ name: "Network" }, { name: "Response" }] },
    ];
    expect(locateComponent(stages, "response")).toMatchObject({ stage: 1, component: 1 });
    expect(locateComponent(stages, "Egress / Network")).toMatchObject({ stage: 1, component: 0 });
    expect(locateComponent(stages, "Network")).toMatchObject({ error: expect.stringMatching(/names 2 components/) });
    expect(locateComponent(stages, "GPU")).toMatchObject({ error: expect.stringMatching(/no component “GPU”/) });
  });
});

describe("numbers an audit reproduced", () => {
  it("a unit written apart is refused: “RAG retrieval:-50 ms”, “rag:-50 s”", () => {
    expect(parseChange("RAG retrieval:-50 ms")).toMatchObject({
      error: expect.stringMatching(/space before its unit/),
    });
    expect(parseChange("rag:-50 s")).toMatchObject({ error: expect.any(String) });
    expect(parseChange("rag:-50ms")).toEqual({ target: "rag", kind: "shift", ms: -50 });
  });

  it("−50 ms on a bucket that straddles 50 ms puts its lower part on 0, not the whole bucket", () => {
    // 100 requests uniform on (0, 200] ms. Minus 50 ms: a quarter lands on 0, the rest is uniform
    // on (0, 150], so p50 = (0.5 − 0.25) / 0.75 × 150 = 50 ms (moving the bucket whole says 75 ms).
    const stages: StageHistograms = [
      {
        name: "Queue",
        components: [
          {
            name: "queue",
            buckets: [
              { upperBound: 0.2, count: 100 },
              { upperBound: Infinity, count: 100 },
            ],
          },
        ],
      },
    ];
    const changes = [{ stage: 0, component: 0, label: "queue", kind: "shift" as const, ms: -50 }];
    const p50 = predictEndToEnd(stages, { quantile: 0.5, targetMs: 100, changes })!;
    expect(Math.abs(p50.quantileMs - 50)).toBeLessThanOrEqual(p50.errorBoundMs + 1e-9);
    expect(p50.errorBoundMs).toBeLessThan(0.5);
    // P(≤ 100 ms) = 0.25 + 0.75 × 100/150 = 0.75
    expect(Math.abs(p50.attainment - 0.75)).toBeLessThanOrEqual(p50.attainmentError + 1e-9);
  });

  it("one rare observation hours out does not make every cell seconds wide", () => {
    // 99,998 requests uniform on (300, 800] ms and 2 in (1920, 7680] s, like vLLM's queue buckets.
    const buckets: Bucket[] = [
      { upperBound: 0.3, count: 0 },
      { upperBound: 0.8, count: 99_998 },
      { upperBound: 1920, count: 99_998 },
      { upperBound: 7680, count: 100_000 },
      { upperBound: Infinity, count: 100_000 },
    ];
    const stages: StageHistograms = [{ name: "Queue", components: [{ name: "queue", buckets }] }];
    for (const q of [0.5, 0.95, 0.99]) {
      const truth = 300 + (500 * q * 100_000) / 99_998;
      const prediction = predictEndToEnd(stages, { quantile: q, targetMs: 600 })!;
      expect(Math.abs(prediction.quantileMs - truth), `q=${q}`).toBeLessThanOrEqual(prediction.errorBoundMs + 1e-9);
      expect(prediction.errorBoundMs / truth, `q=${q}`).toBeLessThan(0.01);
      // P(≤ 600 ms) = 300/500 × 99,998/100,000
      expect(Math.abs(prediction.attainment - 0.6 * 0.99998)).toBeLessThanOrEqual(prediction.attainmentError + 1e-9);
      expect(prediction.attainmentError).toBeLessThan(0.01);
    }
  });
});

describe("many components and what the buckets allow (issue 26, item 10)", () => {
  // vLLM-like queue buckets: 99,998 requests uniform on (300, 800] ms and 2 in (1920, 7680] s.
  const farTail: Bucket[] = [
    { upperBound: 0.3, count: 0 },
    { upperBound: 0.8, count: 99_998 },
    { upperBound: 1920, count: 99_998 },
    { upperBound: 7680, count: 100_000 },
    { upperBound: Infinity, count: 100_000 },
  ];
  const uniformTo = (ms: number): Bucket[] => [
    { upperBound: ms / 1000, count: 1000 },
    { upperBound: Infinity, count: 1000 },
  ];
  // The queue, then C − 1 small stages uniform on (0, 19.6/(C − 1)] ms, whose sum X lies in
  // [0, 19.6] with mean 9.8. For t in [319.6, 800], t − X stays in (300, 800] where the queue's CDF
  // is linear, so P(Q + X ≤ t) = 0.99998 × (t − 9.8 − 300)/500 exactly (the far tail is later than
  // any such t): the p95 is 300 + 9.8 + 500 × 0.95/0.99998 = 784.8095 ms, whatever C is.
  const pipelineOf = (components: number): StageHistograms => [
    { name: "Queue", components: [{ name: "queue", buckets: farTail }] },
    ...Array.from({ length: components - 1 }, (_, i) => ({
      name: `Step ${i}`,
      components: [{ name: `step ${i}`, buckets: uniformTo(19.6 / (components - 1)) }],
    })),
  ];
  const truth = 300 + 9.8 + (500 * 0.95) / 0.99998;

  it.each([50, 61, 100])("%i components with a far tail: the p95 is 784.8 ms, with a bound under 1 %", (components) => {
    expect(truth).toBeCloseTo(784.8095, 4);
    const prediction = predictEndToEnd(pipelineOf(components), { quantile: 0.95, targetMs: 800 })!;
    expect(Math.abs(prediction.quantileMs - truth)).toBeLessThanOrEqual(prediction.errorBoundMs + 1e-9);
    expect(prediction.errorBoundMs / truth).toBeLessThan(0.01);
    // P(≤ 700 ms) = 0.99998 × (700 − 309.8)/500, by the same argument.
    const within = (0.99998 * (700 - 309.8)) / 500;
    const at700 = predictEndToEnd(pipelineOf(components), { quantile: 0.95, targetMs: 700 })!;
    expect(Math.abs(at700.attainment - within)).toBeLessThanOrEqual(at700.attainmentError + 1e-9);
    expect(at700.attainmentError).toBeLessThan(0.01);
  });

  it("100 components in parallel stages, one with a far tail: a bound under 1 % and within 0.5 % of 200,000 draws", () => {
    // Ten stages of ten identical components uniform on (0, 100] ms and one stage with the queue:
    // each uniform stage is the max of ten, F(t) = (t/100)¹⁰, sampled here a million times.
    const stages: StageHistograms = [
      { name: "Queue", components: [{ name: "queue", buckets: farTail }] },
      ...Array.from({ length: 10 }, (_, s) => ({
        name: `Fan-out ${s}`,
        components: Array.from({ length: s === 9 ? 9 : 10 }, (_, c) => ({
          name: `c${s}.${c}`,
          buckets: uniformTo(100),
        })),
      })),
    ];
    const prediction = predictEndToEnd(stages, { quantile: 0.95, targetMs: 2000 })!;
    expect(prediction.errorBoundMs / prediction.quantileMs).toBeLessThan(0.01);
    const draw = () => {
      let total = random() < 0.99998 ? 300 + 500 * random() : 1_920_000 + 5_760_000 * random();
      for (let s = 0; s < 10; s++) {
        let max = 0;
        for (let c = 0; c < (s === 9 ? 9 : 10); c++) max = Math.max(max, 100 * random());
        total += max;
      }
      return total;
    };
    const sample = Float64Array.from({ length: 200_000 }, draw);
    const sampled = quantileOfSample(sample, 0.95);
    // The sample's own p95 wanders by about ±1 ms (its standard error): 0.5 % is ~4 of those.
    expect(Math.abs(prediction.quantileMs - sampled) / sampled).toBeLessThan(0.005);
  });

  // Every component is the queue itself: the far tails together carry more than the share that
  // can be folded (50 × 2·10⁻⁵ = 10⁻³), so they must not stretch the grid over hours.
  const queueDraw = () => (random() < 0.99998 ? 300 + 500 * random() : 1_920_000 + 5_760_000 * random());
  it.each([50, 100])(
    "%i queues in series: the p95 within its bound (under 1 %) of 100,000 seeded draws, and the attainment too",
    (stages) => {
      const pipeline: StageHistograms = Array.from({ length: stages }, (_, i) => ({
        name: `Queue ${i}`,
        components: [{ name: `queue ${i}`, buckets: farTail }],
      }));
      const targetMs = stages * 600;
      const prediction = predictEndToEnd(pipeline, { quantile: 0.95, targetMs })!;
      expect(prediction.errorBoundMs / prediction.quantileMs).toBeLessThan(0.01);
      const sample = Float64Array.from({ length: 100_000 }, () => {
        let total = 0;
        for (let s = 0; s < stages; s++) total += queueDraw();
        return total;
      });
      // The body's sum has σ = 144·√stages ms; the sample's p95 wanders by ~0.01 σ·√stages… ≤ 15 ms
      // (50) or 21 ms (100) at one standard error: 4 of those are allowed beyond the bound.
      const sampled = quantileOfSample(sample, 0.95);
      expect(Math.abs(prediction.quantileMs - sampled)).toBeLessThanOrEqual(
        prediction.errorBoundMs + 4 * 0.05 * 144 * stages,
      );
      const share = sample.filter((ms) => ms <= targetMs).length / sample.length;
      // A share near 0.99 wanders by ~0.0003 at one standard error.
      expect(Math.abs(prediction.attainment - share)).toBeLessThanOrEqual(prediction.attainmentError + 0.0013);
      expect(prediction.attainmentError).toBeLessThan(0.005);
    },
  );

  it("100 queues in parallel: the p95 is 300 + 500 × 0.95^(1/100)/0.99998 = 799.754 ms, bound under 0.1 ms", () => {
    // Below 800 ms the far tails play no part: P(max ≤ t) = (0.99998 (t − 300)/500)¹⁰⁰ exactly.
    const exact = 300 + (500 * 0.95 ** (1 / 100)) / 0.99998;
    expect(exact).toBeCloseTo(799.7536, 3);
    const stage: StageHistograms = [
      {
        name: "Fan-out",
        components: Array.from({ length: 100 }, (_, c) => ({ name: `queue ${c}`, buckets: farTail })),
      },
    ];
    const prediction = predictEndToEnd(stage, { quantile: 0.95, targetMs: 790 })!;
    expect(Math.abs(prediction.quantileMs - exact)).toBeLessThanOrEqual(prediction.errorBoundMs + 1e-9);
    expect(prediction.errorBoundMs).toBeLessThan(0.1);
    // P(max ≤ 790) = (0.99998 × 490/500)¹⁰⁰.
    const within = (0.99998 * (490 / 500)) ** 100;
    expect(Math.abs(prediction.attainment - within)).toBeLessThanOrEqual(prediction.attainmentError + 1e-9);
    // The grid's 0.12 ms cell times the density there (~0.027 per ms) is the attainment's rounding.
    expect(prediction.attainmentError).toBeLessThan(0.005);
  });

  it("gives the interval the buckets allow: each bucket's mass at its lower edge, and at its upper edge", () => {
    // One bucket (0, 100] ms: the p50 could be anything from 0 to 100 ms.
    const one = predictEndToEnd([{ name: "S", components: [{ name: "a", buckets: uniformTo(100) }] }], {
      quantile: 0.5,
      targetMs: 60,
      bucketBounds: true,
    })!;
    expect(one.bucketBounds!.lowerMs).toBeCloseTo(0, 6);
    expect(one.bucketBounds!.upperMs!).toBeGreaterThanOrEqual(100);
    expect(one.bucketBounds!.upperMs!).toBeLessThan(100.1);
    // Two stages, buckets (0, 100] and (100, 200] ms with 50 / 50: lower edges 0 and 100 → sum's
    // p50 is 100 (half the pairs are 0 + 0 or 0 + 100…: P(sum ≤ 100) = 0.75 ≥ 0.5 at 100, and
    // P(sum ≤ 99) = 0.25); upper edges 100 and 200 → p50 of {200, 300, 300, 400} = 300.
    const halves: Bucket[] = [
      { upperBound: 0.1, count: 50 },
      { upperBound: 0.2, count: 100 },
      { upperBound: Infinity, count: 100 },
    ];
    const two = predictEndToEnd(
      [
        { name: "A", components: [{ name: "a", buckets: halves }] },
        { name: "B", components: [{ name: "b", buckets: halves }] },
      ],
      { quantile: 0.5, targetMs: 200, bucketBounds: true },
    )!;
    expect(two.bucketBounds!.lowerMs).toBeGreaterThan(99);
    expect(two.bucketBounds!.lowerMs).toBeLessThanOrEqual(100);
    expect(two.bucketBounds!.upperMs!).toBeGreaterThanOrEqual(300);
    expect(two.bucketBounds!.upperMs!).toBeLessThan(301);
    // Without being asked, it is not computed.
    expect(
      predictEndToEnd([{ name: "S", components: [{ name: "a", buckets: uniformTo(100) }] }], {
        quantile: 0.5,
        targetMs: 60,
      })!.bucketBounds,
    ).toBeNull();
  });

  it("has no finite upper bound when the +Inf bucket's share reaches the quantile", () => {
    const tail: Bucket[] = [
      { upperBound: 0.1, count: 90 },
      { upperBound: Infinity, count: 100 },
    ];
    const p = predictEndToEnd([{ name: "S", components: [{ name: "a", buckets: tail }] }], {
      quantile: 0.95,
      targetMs: 50,
      bucketBounds: true,
    })!;
    expect(p.bucketBounds!.lowerMs).toBeGreaterThan(99.9);
    expect(p.bucketBounds!.lowerMs).toBeLessThanOrEqual(100);
    expect(p.bucketBounds!.upperMs).toBeNull();
    const p50 = predictEndToEnd([{ name: "S", components: [{ name: "a", buckets: tail }] }], {
      quantile: 0.5,
      targetMs: 50,
      bucketBounds: true,
    })!;
    expect(p50.bucketBounds!.upperMs!).toBeLessThan(100.1);
  });

  const histograms = fc
    .array(fc.integer({ min: 0, max: 50 }), { minLength: 3, maxLength: 8 })
    .filter((counts) => counts.some((c) => c > 0))
    .map((increments): Bucket[] => {
      let c = 0;
      const bounds = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1].slice(0, increments.length - 1);
      return [...bounds, Infinity].map((upperBound, i) => ({ upperBound, count: (c += increments[i]!) }));
    })
    .filter((b) => b[b.length - 1]!.count > 0);
  const pipelines = fc.array(fc.array(histograms, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 });

  it("the buckets' interval always holds the uniform reading and its bound (property)", () => {
    fc.assert(
      fc.property(pipelines, fc.constantFrom(0.5, 0.9, 0.95, 0.99), (shape, q) => {
        const stages: StageHistograms = shape.map((components, s) => ({
          name: `s${s}`,
          components: components.map((buckets, c) => ({ name: `c${s}.${c}`, buckets })),
        }));
        const p = predictEndToEnd(stages, { quantile: q, targetMs: 100, bucketBounds: true })!;
        expect(p.bucketBounds!.lowerMs).toBeLessThanOrEqual(p.quantileMs - p.errorBoundMs + 1e-9);
        if (p.bucketBounds!.upperMs !== null)
          expect(p.bucketBounds!.upperMs).toBeGreaterThanOrEqual(p.quantileMs + p.errorBoundMs - 1e-9);
      }),
      { numRuns: 100 },
    );
  });

  it("adding time to a component never lowers the prediction beyond its bound (property)", () => {
    fc.assert(
      fc.property(pipelines, fc.integer({ min: 1, max: 500 }), (shape, ms) => {
        const stages: StageHistograms = shape.map((components, s) => ({
          name: `s${s}`,
          components: components.map((buckets, c) => ({ name: `c${s}.${c}`, buckets })),
        }));
        const base = predictEndToEnd(stages, { quantile: 0.95, targetMs: 100, bucketBounds: true })!;
        const slower = predictEndToEnd(stages, {
          quantile: 0.95,
          targetMs: 100,
          bucketBounds: true,
          changes: [{ stage: 0, component: 0, label: "c0.0", kind: "shift", ms }],
        })!;
        expect(slower.quantileMs + slower.errorBoundMs).toBeGreaterThanOrEqual(
          base.quantileMs - base.errorBoundMs - 1e-9,
        );
        expect(slower.bucketBounds!.lowerMs).toBeGreaterThanOrEqual(
          base.bucketBounds!.lowerMs - 2 * base.errorBoundMs - 1e-6,
        );
      }),
      { numRuns: 100 },
    );
  });
});
