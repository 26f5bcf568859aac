import { describe, expect, it } from "vitest";
import { parseLe, type Bucket } from "./histogram";
import {
  BURN_WINDOWS,
  evaluateSlo,
  alertStates,
  ALERT_RULES,
  attainment,
  burnRate,
  burnRateFactor,
  unreachableAlerts,
  unreachableAlertsNote,
  errorBudgetRemaining,
  goodAndTotal,
  resolveThreshold,
  WINDOW_SECONDS,
} from "./slo";

const buckets = (pairs: [string, number][]): Bucket[] =>
  pairs.map(([le, count]) => ({ upperBound: parseLe(le), count }));

describe("attainment, error budget, burn rate (hand-computed)", () => {
  it.each([
    [{ good: 990, total: 1000 }, 0.99, 0.99, 0, 1],
    [{ good: 995, total: 1000 }, 0.99, 0.995, 0.5, 0.5],
    [{ good: 1000, total: 1000 }, 0.99, 1, 1, 0],
    [{ good: 900, total: 1000 }, 0.99, 0.9, -9, 10],
    [{ good: 9990, total: 10000 }, 0.999, 0.999, 0, 1],
  ])("%o at objective %s: attainment %s, remaining %s, burn %s", (counts, objective, ratio, remaining, burn) => {
    expect(attainment(counts)).toBeCloseTo(ratio, 12);
    expect(errorBudgetRemaining(counts, objective)).toBeCloseTo(remaining, 9);
    expect(burnRate(counts, objective)).toBeCloseTo(burn, 9);
  });

  it("no traffic is no answer, not 100 %", () => {
    expect(attainment({ good: 0, total: 0 })).toBeNull();
    expect(burnRate({ good: 0, total: 0 }, 0.99)).toBeNull();
  });

  it("counts good requests from buckets", () => {
    const b = buckets([
      ["0.5", 80],
      ["0.7", 95],
      ["+Inf", 100],
    ]);
    expect(goodAndTotal(b, 0.7)).toEqual({ good: 95, total: 100 });
  });
});

describe("thresholds against bucket bounds", () => {
  const vllm = [0.3, 0.4, 0.5, 0.75, 1.0, 2.5];
  it("700 ms is not a vLLM TTFT bound: snapped to 0.5 s, or estimated", () => {
    expect(resolveThreshold(0.7, vllm, "snap")).toEqual({
      mode: "snapped",
      boundSeconds: 0.5,
      neighbours: { below: 0.5, above: 0.75 },
    });
    expect(resolveThreshold(0.7, vllm, "interpolate")).toEqual({
      mode: "estimated",
      boundSeconds: 0.7,
      neighbours: { below: 0.5, above: 0.75 },
    });
  });
  it("750 ms is exact", () => expect(resolveThreshold(0.75, vllm, "snap").mode).toBe("exact"));
  it("below every bound there is nothing to snap to, so it is estimated", () =>
    expect(resolveThreshold(0.1, vllm, "snap").mode).toBe("estimated"));
  it.each(["snap", "interpolate"] as const)(
    "above the last finite bound (3 s > 2.5 s) it is counted at that bound, not interpolated (%s)",
    (preference) =>
      expect(resolveThreshold(3, vllm, preference)).toEqual({
        mode: "snapped",
        boundSeconds: 2.5,
        neighbours: { below: 2.5, above: null },
      }),
  );
});

describe("multi-window multi-burn-rate alerts", () => {
  it("factors are 14.4, 6, 3 and 1 for a 30-day window", () => {
    expect(ALERT_RULES.map((r) => burnRateFactor(r, WINDOW_SECONDS["30d"]!))).toEqual([14.4, 6, 3, 1]);
  });
  it("scale with a 28-day window", () => {
    const factors = ALERT_RULES.map((r) => burnRateFactor(r, WINDOW_SECONDS["28d"]!));
    [13.44, 5.6, 2.8, 0.9333333].forEach((f, i) => expect(factors[i]).toBeCloseTo(f, 6));
  });
  it("are Sloth's 7-day windows for a week: 8 %, 12.5 %, 20 % and 42 % of the budget", () => {
    expect(ALERT_RULES.map((r) => burnRateFactor(r, WINDOW_SECONDS["7d"]!))).toEqual([13.44, 3.5, 1.4, 0.98]);
  });
  it("say when an objective is too low for an alert to ever fire", () => {
    const month = WINDOW_SECONDS["30d"]!;
    expect(unreachableAlerts(0.9306, month)).toEqual([]);
    expect(unreachableAlerts(0.93, month).map((r) => r.longWindow)).toEqual(["1h"]);
    expect(unreachableAlerts(0.8, month).map((r) => r.longWindow)).toEqual(["1h", "6h"]);
    expect(unreachableAlertsNote(0.99, month)).toBeNull();
    expect(unreachableAlertsNote(0.92, WINDOW_SECONDS["7d"]!)).toContain("from an objective of 92.56 %");
    expect(
      alertStates({ "5m": 1, "30m": 1, "1h": 1, "2h": 1, "6h": 1, "1d": 1, "3d": 1 }, month, 0.93).map(
        (a) => a.unreachable,
      ),
    ).toEqual([true, false, false, false]);
  });
  it("fire only when both windows burn faster than the factor", () => {
    const rates = { "5m": 20, "30m": 2, "1h": 15, "2h": 2, "6h": 7, "1d": 2, "3d": 0.5 };
    const states = alertStates(rates, WINDOW_SECONDS["30d"]!, 0.99);
    expect(states.map((s) => [s.severity, s.longWindow, s.shortWindow, s.firing])).toEqual([
      ["page", "1h", "5m", true],
      ["page", "6h", "30m", false],
      ["ticket", "1d", "2h", false],
      ["ticket", "3d", "6h", false],
    ]);
    expect(alertStates({ ...rates, "5m": null }, WINDOW_SECONDS["30d"]!, 0.99)[0]!.firing).toBe(false);
  });
});

describe("evaluateSlo", () => {
  // 98 of every 100 requests under 700 ms in every window: a steady burn of 2 at a 99 % objective.
  const steady = buckets([
    ["0.5", 90],
    ["0.7", 98],
    ["+Inf", 100],
  ]);
  const everyWindow = new Map([...BURN_WINDOWS, "7d", "28d"].map((w) => [w, steady]));
  const slo = { thresholdMs: 700, thresholdMode: "snap" as const, objective: 0.99, windowDays: 28 };

  it("takes the alert factors from the SLO's own 28-day window whatever window is viewed", () => {
    for (const view of ["28d", "7d"]) {
      const evaluation = evaluateSlo(slo, view, everyWindow)!;
      expect(evaluation.attainment).toBeCloseTo(0.98, 12);
      expect(evaluation.alerts.map((a) => [Math.round(a.factor * 100) / 100, a.firing])).toEqual([
        [13.44, false],
        [5.6, false],
        [2.8, false],
        [0.93, true],
      ]);
    }
  });

  it("is null when the histogram has no buckets over the viewed window", () => {
    expect(evaluateSlo(slo, "28d", new Map())).toBeNull();
  });
});
