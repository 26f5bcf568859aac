// How numbers read everywhere in the product: milliseconds, percentages, dollars, counts.

const MINUS = "−";

/** 660 → "660 ms", 12.25 → "12.3 ms", 15000 → "15 s". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  if (Math.abs(ms) >= 10_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, "")} s`;
  return `${Number.isInteger(ms) ? ms : ms.toFixed(1)} ms`.replace("-", MINUS);
}

/** A measured value that may only be a lower bound: "≥ 500 ms". */
export function formatMeasuredMs(ms: number | null | undefined, isLowerBound = false, digits = 1): string {
  if (ms === null || ms === undefined) return "—";
  return `${isLowerBound ? "≥ " : ""}${ms.toFixed(digits)} ms`;
}

/** +12.5 ms / −3.0 ms. */
export function formatSignedMs(ms: number | null | undefined, digits = 1): string {
  if (ms === null || ms === undefined) return "—";
  return `${ms > 0 ? "+" : ms < 0 ? MINUS : ""}${Math.abs(ms).toFixed(digits)} ms`;
}

/** A share as a percentage: 0.9876 → "98.76 %". */
export function formatPercent(share: number | null | undefined, digits = 2): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return "—";
  return `${(share * 100).toFixed(digits)} %`.replace("-", MINUS);
}

/** A relative change: −0.1212 → "−12.1 %", null (unbounded) → "unbounded". */
export function formatChange(relative: number | null | undefined, digits = 1): string {
  if (relative === undefined) return "—";
  if (relative === null) return "unbounded";
  const sign = relative > 0 ? "+" : relative < 0 ? MINUS : "";
  return `${sign}${Math.abs(relative * 100).toFixed(digits)} %`;
}

/** An interval of relative changes: "[−15.5 %, −8.5 %]". */
export function formatChangeInterval(lower: number | null, upper: number | null, digits = 1): string {
  return `[${formatChange(lower, digits)}, ${formatChange(upper, digits)}]`;
}

/** Dollars with enough digits for per-1k-token prices: 0.025 → "$0.0250". */
export function formatUsd(value: number | null | undefined, digits = 4): string {
  if (value === null || value === undefined) return "—";
  return `${value < 0 ? MINUS : ""}$${Math.abs(value).toFixed(digits)}`;
}

/** 12345 → "12,345". */
export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? "—" : Math.round(n).toLocaleString("en-US");
}

/** (1, "session") → "1 session"; (3, "session") → "3 sessions". */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** How long something has lasted: "since 02:41, 23 min" ("since at least" when it began before what was looked at). */
export function sinceText(since: number, now: number, fromRangeStart = false): string {
  const minutes = Math.max(0, Math.round((now - since) / 60));
  const duration = minutes < 90 ? `${minutes} min` : `${(minutes / 60).toFixed(minutes < 600 ? 1 : 0)} h`;
  const clock = new Date(since * 1000).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  return `${fromRangeStart ? "since at least " : "since "}${clock}, ${duration}`;
}
