import { describe, expect, it } from "vitest";
import { errorBudgetText } from "./status-text";

describe("the status board's least error budget left", () => {
  it("tells a service without SLOs from one whose SLOs have no data", () => {
    expect(errorBudgetText({ lowestErrorBudgetRemaining: null, sloCount: 0 })).toBe("no SLO");
    // chat-api in the demo against a Prometheus with only foreign telemetry: two SLOs, no data.
    expect(errorBudgetText({ lowestErrorBudgetRemaining: null, sloCount: 2 })).toBe("no data (2 SLOs)");
    expect(errorBudgetText({ lowestErrorBudgetRemaining: null, sloCount: 1 })).toBe("no data (1 SLO)");
    expect(errorBudgetText({ lowestErrorBudgetRemaining: 0.4321, sloCount: 2 })).toBe("43.2 %");
  });
});
