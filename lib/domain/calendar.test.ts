import { describe, expect, it } from "vitest";
import { instantOf, isTimeZone, periodEnd, periodStart } from "./calendar";

const iso = (ms: number) => new Date(ms).toISOString();

describe("calendar windows", () => {
  it("starts a month at local midnight on the 1st, across a daylight-saving change", () => {
    const mid = Date.parse("2026-03-15T12:00:00Z");
    expect(iso(periodStart("month", mid, "Europe/Berlin"))).toBe("2026-02-28T23:00:00.000Z"); // CET, +01:00
    expect(iso(periodEnd("month", mid, "Europe/Berlin"))).toBe("2026-03-31T22:00:00.000Z"); // CEST, +02:00
    expect(iso(periodStart("month", mid, "UTC"))).toBe("2026-03-01T00:00:00.000Z");
  });

  it("starts a week on Monday in the zone, not in UTC", () => {
    // Sunday 2026-11-22 23:30 in New York is already Monday 04:30 UTC.
    const sundayNight = Date.parse("2026-11-23T04:30:00Z");
    expect(iso(periodStart("week", sundayNight, "America/New_York"))).toBe("2026-11-16T05:00:00.000Z");
    expect(iso(periodStart("week", sundayNight, "UTC"))).toBe("2026-11-23T00:00:00.000Z");
    expect(iso(periodEnd("week", sundayNight, "America/New_York"))).toBe("2026-11-23T05:00:00.000Z");
  });

  it("takes a midnight that does not exist as the first instant after the gap", () => {
    // Chile springs forward at 00:00 on 2026-09-06: the day starts at 01:00 (-03:00).
    expect(iso(instantOf(2026, 9, 6, "America/Santiago"))).toBe("2026-09-06T04:00:00.000Z");
  });

  it("an instant on the boundary belongs to the period it starts", () => {
    const start = Date.parse("2026-02-28T23:00:00Z");
    expect(periodStart("month", start, "Europe/Berlin")).toBe(start);
    expect(periodStart("month", start - 1, "Europe/Berlin")).toBe(Date.parse("2026-01-31T23:00:00Z"));
  });

  it("knows time zones", () => {
    expect(isTimeZone("Asia/Kolkata")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
