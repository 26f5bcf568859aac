import { Temporal } from "temporal-polyfill";
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

  it("starts a period at the day's own midnight when the clocks move later that day", () => {
    // Sydney springs forward at 02:00 on 2023-10-01: midnight is still +10:00, not 30 Sept 23:00.
    expect(iso(periodStart("month", Date.parse("2023-10-15T00:00:00Z"), "Australia/Sydney"))).toBe(
      "2023-09-30T14:00:00.000Z",
    );
    // Lord Howe moves by 30 min at 02:00 the same day.
    expect(iso(instantOf(2023, 10, 1, "Australia/Lord_Howe"))).toBe("2023-09-30T13:30:00.000Z");
    // Fiji springs forward on 2015-11-01 itself.
    expect(iso(instantOf(2015, 11, 1, "Pacific/Fiji"))).toBe("2015-10-31T12:00:00.000Z");
  });

  it("takes the first of two midnights when the clocks fall back to 00:00", () => {
    // Jerusalem fell back from 01:00 to 00:00 on Monday 2001-09-24: the week starts at 00:00+03:00.
    const monday = Date.parse("2001-09-25T12:00:00Z");
    expect(iso(periodStart("week", monday, "Asia/Jerusalem"))).toBe("2001-09-23T21:00:00.000Z");
  });

  it("agrees with Temporal's startOfDay for every zone, every month, 2000–2030", { timeout: 120_000 }, () => {
    const wrong: string[] = [];
    for (const timeZone of Intl.supportedValuesOf("timeZone")) {
      for (let year = 2000; year <= 2030; year++) {
        for (let month = 1; month <= 12; month++) {
          const reference = Temporal.PlainDate.from({ year, month, day: 1 }).toZonedDateTime({ timeZone });
          const ours = instantOf(year, month, 1, timeZone);
          if (ours !== reference.epochMilliseconds)
            wrong.push(`${timeZone} ${year}-${month}: ${iso(ours)} vs ${reference}`);
        }
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it("knows time zones", () => {
    expect(isTimeZone("Asia/Kolkata")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
