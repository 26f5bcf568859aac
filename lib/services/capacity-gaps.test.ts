import { describe, expect, it } from "vitest";
import { explainGaps, type LiveCapacity } from "./capacity";

// The audit's live operating point: "predicted p95 wait 0 ms, measured 76 ms" and "in flight
// (Little) 1.6" beside "running gauge 4.9", with no word of explanation on the page.
const view = (patch: Partial<LiveCapacity>): LiveCapacity =>
  ({
    arrivalRps: 6.7,
    serviceTimeS: 0.24,
    serviceTimeSource: "histogram",
    running: 4.9,
    queueComponent: {
      stage: "Queue",
      name: "Request queueing",
      budgetMs: 100,
      measuredMs: 76,
      measuredIsLowerBound: false,
    },
    predictedWaitMs: 0,
    predictedWaitMgcMs: 0,
    ...patch,
  }) as LiveCapacity;

describe("the capacity page explains numbers that disagree", () => {
  it("says why the running gauge and λ × S differ, and which the prediction uses", () => {
    const gaps = explainGaps(view({}), "p95");
    expect(gaps[0]).toMatch(/running gauge says 4\.9 .* λ × S says 1\.6.*The prediction uses λ × S/);
    expect(gaps[1]).toMatch(/measured queue p95 \(76 ms\) is above the predicted wait \(0 ms\)/);
  });

  it("says nothing when they agree", () => {
    expect(explainGaps(view({ arrivalRps: 20, running: 4.9, queueComponent: null }), "p95")).toEqual([]);
  });
});
