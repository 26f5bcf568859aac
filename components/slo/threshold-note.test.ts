import { describe, expect, it } from "vitest";
import type { SloStatus } from "@/lib/services/slos";
import { thresholdNote } from "./slo-list";

const status = (patch: Partial<SloStatus>) =>
  ({
    thresholdMs: 700,
    countedBoundMs: 700,
    thresholdMode: "estimated",
    bucketBoundsMs: [500, 1000],
    histogramKind: "classic",
    ...patch,
  }) as SloStatus;

describe("how an SLO's threshold was counted, in words", () => {
  it("a native histogram: histogram_fraction, no bucket to snap to, inside which native bucket", () => {
    expect(thresholdNote(status({ histogramKind: "native", bucketBoundsMs: [648.4, 707.1, 771.1] }))).toBe(
      "700 ms is counted by histogram_fraction on the native histogram: no bucket to snap to, interpolated only inside the native bucket 648.4 ms–707.1 ms.",
    );
  });

  it("a classic histogram between bounds: an interpolated estimate", () => {
    expect(thresholdNote(status({}))).toMatch(/between the bounds 500 ms and 1000 ms\): an estimate/);
  });
});
