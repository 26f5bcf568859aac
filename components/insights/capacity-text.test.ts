import { describe, expect, it } from "vitest";
import { queueMetrics } from "@/lib/domain/capacity";
import { predictedWaitText } from "./capacity-text";

describe("the predicted queue wait, in words", () => {
  it("says no data when nothing was read (foreign telemetry: every input null), not overloaded", () => {
    expect(predictedWaitText({ queue: null, predictedWaitMs: null })).toBe("no data");
  });

  it("says unbounded only when the model has its inputs and ρ ≥ 1", () => {
    // λ = 12 req/s, S = 1 s, c = 10: ρ = 1.2.
    const overloaded = queueMetrics({ arrivalRps: 12, serviceTimeS: 1, servers: 10 });
    expect(overloaded.stable).toBe(false);
    expect(predictedWaitText({ queue: overloaded, predictedWaitMs: null })).toBe("unbounded (overloaded)");
    const fine = queueMetrics({ arrivalRps: 5, serviceTimeS: 1, servers: 10 });
    expect(predictedWaitText({ queue: fine, predictedWaitMs: 12.4 })).toBe("12 ms");
  });
});
