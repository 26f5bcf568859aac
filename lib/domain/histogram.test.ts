import { describe, expect, it } from "vitest";
import {
  countAtOrBelow,
  finiteBounds,
  histogramQuantile,
  normaliseBuckets,
  parseLe,
  parsePrometheusFloat,
  type Bucket,
} from "./histogram";

const buckets = (pairs: [string, number][]): Bucket[] =>
  pairs.map(([le, count]) => ({ upperBound: parseLe(le), count }));
const example = buckets([
  ["0.1", 10],
  ["0.2", 30],
  ["0.5", 90],
  ["+Inf", 100],
]);

describe("histogramQuantile (hand-computed)", () => {
  it.each([
    [0.05, 0.05], // rank 5 in (0, 0.1]: 0.1 × 5/10
    [0.1, 0.1], // rank 10 is exactly the first bucket's count
    [0.2, 0.15], // rank 20 in (0.1, 0.2]: 0.1 + 0.1 × 10/20
    [0.5, 0.3], // rank 50 in (0.2, 0.5]: 0.2 + 0.3 × 20/60
    [0.9, 0.5],
  ])("q=%s is %s", (q, value) => {
    const estimate = histogramQuantile(q, example);
    expect(estimate.kind).toBe("value");
    expect(estimate.kind === "value" && estimate.value).toBeCloseTo(value, 12);
  });

  it("a rank in the +Inf bucket is only a lower bound: ≥ the last finite bound", () => {
    expect(histogramQuantile(0.95, example)).toEqual({ kind: "atLeast", value: 0.5 });
    expect(histogramQuantile(0.99, example)).toEqual({ kind: "atLeast", value: 0.5 });
  });

  it('treats le="1" and le="1.0" as one bucket', () => {
    const mixed = buckets([
      ["1", 5],
      ["1.0", 5],
      ["+Inf", 20],
    ]);
    expect(normaliseBuckets(mixed)).toEqual([
      { upperBound: 1, count: 10 },
      { upperBound: Number.POSITIVE_INFINITY, count: 20 },
    ]);
    expect(histogramQuantile(0.25, mixed)).toEqual({ kind: "value", value: 0.5 });
  });

  it("flattens non-monotonic counts like Prometheus", () => {
    const dip = buckets([
      ["0.1", 10],
      ["0.2", 8],
      ["+Inf", 20],
    ]);
    expect(normaliseBuckets(dip).map((b) => b.count)).toEqual([10, 10, 20]);
  });

  it.each([
    ["no +Inf bucket", buckets([["0.1", 1]]), "no-inf-bucket"],
    ["only +Inf", buckets([["+Inf", 5]]), "too-few-buckets"],
    [
      "no observations",
      buckets([
        ["0.1", 0],
        ["+Inf", 0],
      ]),
      "no-observations",
    ],
    ["nothing", [], "no-inf-bucket"],
  ])("%s gives no estimate", (_name, input, reason) => {
    expect(histogramQuantile(0.5, input)).toEqual({ kind: "none", reason });
  });
});

describe("countAtOrBelow", () => {
  const vllmLike = buckets([
    ["0.5", 80],
    ["0.75", 90],
    ["+Inf", 100],
  ]);
  it("is exact on a bound", () => expect(countAtOrBelow(0.5, vllmLike)).toEqual({ count: 80, isExact: true }));
  it("interpolates inside a bucket: 700 ms between 0.5 and 0.75", () => {
    const { count, isExact } = countAtOrBelow(0.7, vllmLike);
    expect(isExact).toBe(false);
    expect(count).toBeCloseTo(88, 10); // 80 + (0.2 / 0.25) × 10
  });
  it("cannot see past the last finite bound", () =>
    expect(countAtOrBelow(2, vllmLike)).toEqual({ count: 90, isExact: false }));
  it("lists finite bounds", () => expect(finiteBounds(vllmLike)).toEqual([0.5, 0.75]));
});

describe("histogramQuantile edge cases, as Prometheus's bucketQuantile answers them", () => {
  it.each([
    [-0.5, Number.NEGATIVE_INFINITY],
    [-1e-9, Number.NEGATIVE_INFINITY],
    [1.5, Number.POSITIVE_INFINITY],
    [Number.NaN, Number.NaN],
  ])("q=%s gives %s, whatever the buckets", (q, value) => {
    expect(histogramQuantile(q, example)).toEqual({ kind: "value", value });
    expect(histogramQuantile(q, [])).toEqual({ kind: "value", value });
  });

  it("ignores float noise between neighbouring counts (Prometheus's 1e-12 precision correction)", () => {
    // rate() arithmetic left le=2 a hair above le=1; at q=1 the rank is the total, which without
    // the correction lands in (1, 2] and reads 2 s instead of 1 s.
    const noisy = [
      { upperBound: 1, count: 100 },
      { upperBound: 2, count: 100.00000000005 },
      { upperBound: Number.POSITIVE_INFINITY, count: 100 },
    ];
    expect(histogramQuantile(1, noisy)).toEqual({ kind: "value", value: 1 });
    // A real difference is kept.
    const real = [
      { upperBound: 1, count: 100 },
      { upperBound: 2, count: 100.5 },
      { upperBound: Number.POSITIVE_INFINITY, count: 100.5 },
    ];
    expect(histogramQuantile(1, real)).toEqual({ kind: "value", value: 2 });
  });
});

describe("parseLe reads le like Go's strconv.ParseFloat", () => {
  it.each([
    ["1", 1],
    ["1.0", 1],
    ["1e0", 1],
    ["0.005", 0.005],
    ["+Inf", Number.POSITIVE_INFINITY],
    ["inf", Number.POSITIVE_INFINITY],
    ["Inf", Number.POSITIVE_INFINITY],
    ["+inf", Number.POSITIVE_INFINITY],
    ["infinity", Number.POSITIVE_INFINITY],
    ["-Inf", Number.NEGATIVE_INFINITY],
  ])("%j is %s", (le, value) => expect(parseLe(le)).toBe(value));

  it.each(["", " ", " 1", "1 ", "abc", "0x", "1,5"])("%j is not a bound (NaN: the series is skipped)", (le) =>
    expect(parseLe(le)).toBeNaN(),
  );

  it("sample values as Prometheus's JSON writes them: +Inf is infinity (Number() says NaN)", () => {
    expect(Number("+Inf")).toBeNaN();
    expect(parsePrometheusFloat("+Inf")).toBe(Number.POSITIVE_INFINITY);
    expect(parsePrometheusFloat("-Inf")).toBe(Number.NEGATIVE_INFINITY);
    expect(parsePrometheusFloat("1.5e+06")).toBe(1.5e6);
    expect(parsePrometheusFloat("NaN")).toBeNaN();
    expect(parsePrometheusFloat(undefined)).toBeNaN();
  });

  it("a bucket whose le cannot be read is left out, not counted at 0", () => {
    const withEmpty = [...example, { upperBound: parseLe(""), count: 1000 }];
    expect(histogramQuantile(0.5, withEmpty)).toEqual(histogramQuantile(0.5, example));
  });
});
