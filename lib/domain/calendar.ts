// Calendar SLO windows: the current week (from Monday 00:00) or month (from the 1st, 00:00) in a
// time zone, computed with Intl so daylight-saving changes land where the zone's rules put them.

export type CalendarUnit = "week" | "month";

/** Alert factors need one length per window; calendar windows use their nominal one. */
export const CALENDAR_NOMINAL_DAYS: Record<CalendarUnit, number> = { week: 7, month: 30 };

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallTime(epochMs: number, timeZone: string): WallTime & { weekday: number } {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      weekday: "short",
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(epochMs)).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(parts.weekday!),
  };
}

/** The zone's offset from UTC at an instant, in ms (east positive). */
function offsetMs(epochMs: number, timeZone: string): number {
  const w = wallTime(epochMs, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

const HOUR = 3_600_000;

/**
 * The offsets (ms) the zone uses while some place's clock reads the day `asUtc` names: UTC
 * offsets run from -12:00 to +14:00, so that day's midnight lies within [asUtc - 14 h, asUtc + 12 h].
 */
function offsetsAround(asUtc: number, timeZone: string): number[] {
  const early = offsetMs(asUtc - 15 * HOUR, timeZone);
  if (early === offsetMs(asUtc + 13 * HOUR, timeZone) && early === offsetMs(asUtc - HOUR, timeZone)) return [early];
  const seen = new Set<number>();
  for (let t = asUtc - 15 * HOUR; t <= asUtc + 13 * HOUR; t += HOUR) seen.add(offsetMs(t, timeZone));
  return [...seen];
}

const dateKey = (w: WallTime) => w.year * 10_000 + w.month * 100 + w.day;

/**
 * The first instant of a local day: its midnight when that exists, the earliest of two when the
 * midnight repeats (e.g. Asia/Jerusalem falling back to 00:00), else the first instant after a
 * spring-forward gap (e.g. America/Santiago's 00:00 → 01:00).
 *
 * Every offset in effect around the day is tried as the midnight's offset and kept only when the
 * zone really uses it at that instant; guessing with one offset misreads a day whose clocks move
 * later on (Australia/Sydney on 2023-10-01 is +10:00 at midnight, +11:00 from 02:00).
 */
export function instantOf(year: number, month: number, day: number, timeZone: string): number {
  const asUtc = Date.UTC(year, month - 1, day);
  const offsets = offsetsAround(asUtc, timeZone);
  const midnights = offsets.map((o) => asUtc - o).filter((t) => offsetMs(t, timeZone) === asUtc - t);
  if (midnights.length > 0) return Math.min(...midnights);
  // No midnight: the day begins at the gap's end, the first instant whose local date is the day.
  const target = year * 10_000 + month * 100 + day;
  let lo = asUtc - Math.max(...offsets) - HOUR; // still the day before
  let hi = asUtc - Math.min(...offsets) + HOUR; // already the day
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (dateKey(wallTime(mid, timeZone)) >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Start of the calendar period containing `epochMs`, as epoch ms. */
export function periodStart(unit: CalendarUnit, epochMs: number, timeZone: string): number {
  const w = wallTime(epochMs, timeZone);
  if (unit === "month") return instantOf(w.year, w.month, 1, timeZone);
  const monday = new Date(Date.UTC(w.year, w.month - 1, w.day - w.weekday));
  return instantOf(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate(), timeZone);
}

/** Start of the next period: the end of the one containing `epochMs`. */
export function periodEnd(unit: CalendarUnit, epochMs: number, timeZone: string): number {
  const start = wallTime(periodStart(unit, epochMs, timeZone), timeZone);
  const next =
    unit === "month"
      ? new Date(Date.UTC(start.year, start.month, 1))
      : new Date(Date.UTC(start.year, start.month - 1, start.day + 7));
  return instantOf(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone);
}
