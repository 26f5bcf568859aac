import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LIVE_WINDOWS, snapWindow, windowSeconds } from "./windows";

describe("snapWindow", () => {
  it.each([
    ["1m", "1m"],
    ["5m", "5m"],
    ["7m", "5m"],
    ["8m", "10m"],
    ["60m", "1h"],
    ["24h", "1d"],
    ["1440m", "1d"],
    ["4h", "3h"],
    ["5h", "6h"],
    ["9d", "7d"],
  ])("%s → %s", (asked, snapped) => {
    expect(snapWindow(windowSeconds(asked))).toBe(snapped);
  });

  it("keeps every live window as it is, and turns any duration into one of them", () => {
    for (const window of LIVE_WINDOWS) expect(snapWindow(windowSeconds(window))).toBe(window);
    fc.assert(
      fc.property(fc.integer({ min: 60, max: 7 * 86400 }), (seconds) => {
        const snapped = snapWindow(seconds);
        expect(LIVE_WINDOWS).toContain(snapped);
        // Never further than the gap between two neighbours: at most 2.5× off.
        const ratio = windowSeconds(snapped) / seconds;
        expect(ratio).toBeGreaterThanOrEqual(1 / 2.5);
        expect(ratio).toBeLessThanOrEqual(2.5);
      }),
    );
  });
});
