import { describe, expect, it } from "vitest";
import { countThreshold, goodRateExpr, nativeThreshold } from "./sli";

describe("counting an SLO threshold against the histogram's le values", () => {
  it("counts every spelling of a bound, as the page merges them (0.5 and 0.50 after an upgrade)", () => {
    const counted = countThreshold(500, ["0.25", "0.5", "0.50", "1", "+Inf"], "snap");
    expect(counted.mode).toBe("exact");
    expect(counted.terms).toEqual([
      { le: "0.5", weight: 1 },
      { le: "0.50", weight: 1 },
    ]);
    const expr = goodRateExpr({ metric: "m", matchers: {} }, counted, "5m");
    expect(expr).toBe('sum(rate(m_bucket{le="0.5"}[5m])) + sum(rate(m_bucket{le="0.50"}[5m]))');
  });

  it("interpolates across both spellings of each neighbour", () => {
    const counted = countThreshold(750, ["0.5", "0.50", "1", "1.0", "+Inf"], "interpolate");
    expect(counted.mode).toBe("estimated");
    expect(counted.terms.map((t) => t.le)).toEqual(["0.5", "0.50", "1", "1.0"]);
    expect(counted.terms.every((t) => t.weight === 0.5)).toBe(true);
  });

  it('matches the threshold in the histogram\'s own unit: 700 ms is le="700" on milliseconds', () => {
    expect(countThreshold(700, ["500", "700", "1000", "+Inf"], "snap", "milliseconds").terms).toEqual([
      { le: "700", weight: 1 },
    ]);
    expect(countThreshold(700, null, "snap", "milliseconds").terms).toEqual([{ le: "700", weight: 1 }]);
    expect(countThreshold(650, ["500", "700", "+Inf"], "snap", "milliseconds").explanation).toMatch(/500 ms/);
  });

  it("a native histogram's threshold is counted by histogram_fraction in its unit", () => {
    const counted = nativeThreshold(400, "seconds");
    expect(goodRateExpr({ metric: "m", matchers: {}, kind: "native" }, counted, "5m")).toBe(
      "histogram_fraction(0, 0.4, sum(rate(m{}[5m]))) * histogram_count(sum(rate(m{}[5m])))",
    );
  });
});
