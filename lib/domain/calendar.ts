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

/**
 * The instant of a local wall time. When the wall time falls in a spring-forward gap it is taken
 * after the gap (midnight gaps exist, e.g. America/Santiago); a repeated hour takes its first instant.
 */
export function instantOf(year: number, month: number, day: number, timeZone: string): number {
  const guess = Date.UTC(year, month - 1, day);
  const first = guess - offsetMs(guess, timeZone);
  const second = guess - offsetMs(first, timeZone);
  const w = wallTime(second, timeZone);
  if (w.year === year && w.month === month && w.day === day) return Math.min(first, second);
  return Math.max(first, second);
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
