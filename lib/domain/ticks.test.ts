import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { niceScale, niceStep } from "./ticks";

describe("round axis ticks", () => {
  it.each([
    [101.3, 451.3, [100, 200, 300, 400, 500]],
    [0, 660, [0, 100, 200, 300, 400, 500, 600, 700]],
    [0, 1, [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [-90, 50, [-100, -75, -50, -25, 0, 25, 50]],
    [580, 700, [580, 600, 620, 640, 660, 680, 700]],
    // Found by the property below: k × 1e-5 fell a hair short of -16384.
    [-16384, -16384 + 0.000017, [-16384, -16383.999995, -16383.99999, -16383.999985, -16383.99998]],
  ])("%s – %s ms reads %j", (min, max, ticks) => {
    expect(niceScale(min, max, 8).ticks).toEqual(ticks);
  });

  it.each([
    [1000, 6, 200],
    [45, 6, 10],
    [0.9, 6, 0.2],
    [7, 8, 1],
  ])("a span of %s in %d ticks steps by %s", (span, count, step) => expect(niceStep(span, count)).toBe(step));

  it("always covers the data with at most the asked number of round ticks", () => {
    fc.assert(
      fc.property(
        // Milliseconds to a microsecond: no subnormal floats, which no latency ever is.
        fc.integer({ min: -1e12, max: 1e12 }).map((x) => x / 1e6),
        fc.integer({ min: 0, max: 1e12 }).map((x) => x / 1e6),
        fc.integer({ min: 3, max: 10 }),
        (min, span, maxTicks) => {
          const { domain, ticks } = niceScale(min, min + span, maxTicks);
          expect(domain[0]).toBeLessThanOrEqual(min);
          expect(domain[1]).toBeGreaterThanOrEqual(min + span);
          expect(ticks.length).toBeLessThanOrEqual(maxTicks);
          const step = ticks[1]! - ticks[0]!;
          const mantissa = step / 10 ** Math.floor(Math.log10(step));
          // Ticks far from zero carry float noise of a few ulps of their size into the step.
          const noise = (16 * Number.EPSILON * Math.max(...ticks.map(Math.abs))) / step;
          expect([1, 2, 2.5, 5, 10].some((s) => Math.abs(mantissa / s - 1) < 1e-9 + noise)).toBe(true);
        },
      ),
    );
  });
});
