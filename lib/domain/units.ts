import type { MetricSource } from "./budget";

// What a histogram's numbers mean. Everything the app shows is in milliseconds; a histogram's
// `le` bounds are in its own unit. A source may say its unit and kind; when it does not, the
// unit is read from the metric's name (the Prometheus and OpenTelemetry naming conventions put
// it there) and the kind is "classic" (`_bucket` series with `le`).

export const HISTOGRAM_UNITS = ["seconds", "milliseconds", "microseconds", "nanoseconds"] as const;
export type HistogramUnit = (typeof HISTOGRAM_UNITS)[number];

export const HISTOGRAM_KINDS = ["classic", "native"] as const;
export type HistogramKind = (typeof HISTOGRAM_KINDS)[number];

/** Powers of ten from seconds: a value in the unit × 10^exponent is seconds. */
const EXPONENT: Record<HistogramUnit, number> = { seconds: 0, milliseconds: -3, microseconds: -6, nanoseconds: -9 };

/** value × 10^exponent, by multiplying or dividing by an exact power of ten (700 / 1000 is 0.7, not 0.7000000000000001). */
function scale(value: number, exponent: number): number {
  return exponent >= 0 ? value * 10 ** exponent : value / 10 ** -exponent;
}

/** Milliseconds in one unit of the histogram. */
export const MS_PER_UNIT: Record<HistogramUnit, number> = {
  seconds: 1000,
  milliseconds: 1,
  microseconds: 1e-3,
  nanoseconds: 1e-6,
};

/** What one unit of the histogram is divided by to be seconds (for PromQL: `expr / 1000` on ms). */
export const UNITS_PER_SECOND: Record<HistogramUnit, number> = {
  seconds: 1,
  milliseconds: 1e3,
  microseconds: 1e6,
  nanoseconds: 1e9,
};

// Unit words in metric names. The long ones count anywhere in the name ("rpc_ms_latency",
// "latency_seconds_bucket"); "us", "ns" and "s" are also region, namespace or plural words, so they
// count only as the name's last word (before _bucket, _count, _sum, _total): "rpc_latency_us".
const UNIT_WORDS: Record<string, HistogramUnit> = {
  seconds: "seconds",
  second: "seconds",
  secs: "seconds",
  milliseconds: "milliseconds",
  millisecond: "milliseconds",
  millis: "milliseconds",
  msec: "milliseconds",
  msecs: "milliseconds",
  ms: "milliseconds",
  microseconds: "microseconds",
  microsecond: "microseconds",
  micros: "microseconds",
  usec: "microseconds",
  usecs: "microseconds",
  nanoseconds: "nanoseconds",
  nanosecond: "nanoseconds",
  nanos: "nanoseconds",
  nsec: "nanoseconds",
  nsecs: "nanoseconds",
};
const SUFFIX_WORDS: Record<string, HistogramUnit> = { us: "microseconds", ns: "nanoseconds" };
const SERIES_SUFFIXES = new Set(["bucket", "count", "sum", "total"]);

/**
 * The unit a metric's name states, or null when it states none: `vllm:e2e_request_latency_seconds`,
 * `traces_span_metrics_duration_milliseconds`, `http_server_duration_ms`, `rpc_latency_msec`,
 * `db_query_duration_millis`, `grpc_latency_us`, `gc_pause_microseconds`, `tick_ns`, also before
 * `_bucket`/`_count`/`_sum`. A unit word must be a whole word of the name: "params_count" and
 * "msg_latency" state nothing.
 */
export function unitFromName(metric: string): HistogramUnit | null {
  const words = metric.toLowerCase().split(/[_:]/);
  let last = words.length - 1;
  while (last > 0 && SERIES_SUFFIXES.has(words[last]!)) last--;
  const suffix = SUFFIX_WORDS[words[last]!];
  if (suffix) return suffix;
  // The last unit word wins: "latency_seconds_ms" would be odd, but it is in ms.
  for (let i = last; i >= 0; i--) {
    const unit = UNIT_WORDS[words[i]!];
    if (unit) return unit;
  }
  return null;
}

/**
 * The unit Prometheus's metadata states (`unit` from OpenMetrics, else the HELP text's
 * "(milliseconds)"/"in ms"), or null.
 */
export function unitFromMetadata(metadata: { unit?: string; help?: string } | null | undefined): HistogramUnit | null {
  if (!metadata) return null;
  const unit = metadata.unit?.trim().toLowerCase() ?? "";
  if (unit === "s") return "seconds";
  const stated =
    UNIT_WORDS[unit] ?? SUFFIX_WORDS[unit] ?? (unit === "µs" || unit === "μs" ? "microseconds" : undefined);
  if (stated) return stated;
  const help = metadata.help?.toLowerCase() ?? "";
  if (/\bnanoseconds?\b|\bin ns\b|\(ns\)/.test(help)) return "nanoseconds";
  if (/\bmicroseconds?\b|\bin (?:us|µs|μs)\b|\((?:us|µs|μs)\)/.test(help)) return "microseconds";
  if (/\bmilliseconds?\b|\bin ms\b|\(ms\)/.test(help)) return "milliseconds";
  if (/\bseconds?\b|\bin s\b|\(s\)/.test(help)) return "seconds";
  return null;
}

export type UnitResolution = { unit: HistogramUnit; from: "source" | "name" | "metadata" | "default" };

/** The unit of a source: as set on it, else from its name, else from metadata, else seconds. */
export function resolveUnit(
  source: Pick<MetricSource, "metric" | "unit">,
  metadata?: { unit?: string; help?: string } | null,
): UnitResolution {
  if (source.unit) return { unit: source.unit, from: "source" };
  const byName = unitFromName(source.metric);
  if (byName) return { unit: byName, from: "name" };
  const byMetadata = unitFromMetadata(metadata);
  if (byMetadata) return { unit: byMetadata, from: "metadata" };
  return { unit: "seconds", from: "default" };
}

export function unitOf(source: Pick<MetricSource, "metric" | "unit">): HistogramUnit {
  return resolveUnit(source).unit;
}

export function kindOf(source: Pick<MetricSource, "kind">): HistogramKind {
  return source.kind ?? "classic";
}

/** A bound in the histogram's unit → seconds (the unit the app's bucket math works in). */
export function toSeconds(value: number, unit: HistogramUnit): number {
  return scale(value, EXPONENT[unit]);
}

/** Seconds → the histogram's own unit. */
export function fromSeconds(seconds: number, unit: HistogramUnit): number {
  return scale(seconds, -EXPONENT[unit]);
}

/** A value in the histogram's unit → milliseconds: le="0.7" on seconds is 700 ms, le="700000" on µs too. */
export function unitToMs(value: number, unit: HistogramUnit): number {
  return scale(value, EXPONENT[unit] + 3);
}

/** Milliseconds → the histogram's own unit: 400 ms is le="0.4" on seconds, le="400" on milliseconds. */
export function msToUnit(ms: number, unit: HistogramUnit): number {
  return scale(ms, -(EXPONENT[unit] + 3));
}

/** A PromQL expression in the histogram's unit, in seconds: `(expr / 1000)` on milliseconds. */
export function secondsExpr(expr: string, unit: HistogramUnit): string {
  return unit === "seconds" ? expr : `(${expr} / ${UNITS_PER_SECOND[unit]})`;
}

export type UnitCheck = {
  /** The unit the bounds are read in now. */
  unit: HistogramUnit;
  /** The unit the bounds look like, or null when they cannot be right in any. */
  suggestedUnit: HistogramUnit | null;
  /** One sentence for people. */
  message: string;
};

/**
 * Whether bucket bounds can be latency bounds in seconds: a latency histogram's smallest bound is
 * at most a second (vLLM's end-to-end histogram starts at 0.3 s; one starting at 2 s cannot see a
 * fast request), and its largest is between 20 ms (one whose every bound is under 20 ms cannot
 * see a slow request) and 4 hours (vLLM's largest is 7680 s, about 2 hours).
 */
function plausibleSeconds(lowest: number, highest: number): boolean {
  return lowest <= 1 && highest >= 0.02 && highest <= 4 * 3600;
}

const plain = (value: number) => String(Number(value.toPrecision(6)));

/**
 * Compares a histogram's finite bucket bounds (in the unit they are read in) with that unit. When
 * they cannot be latency bounds in it (5 … 10000 read as seconds; 0.005 … 10 read as milliseconds),
 * says so and proposes the unit they fit best (the one whose bounds' middle, on a log scale, is
 * nearest 100 ms), or null when they are plausible or too few to tell (fewer than two positive).
 */
export function checkUnit(bounds: readonly number[], unit: HistogramUnit): UnitCheck | null {
  const positive = bounds.filter((b) => Number.isFinite(b) && b > 0).sort((a, b) => a - b);
  if (positive.length < 2) return null;
  const lowest = positive[0]!;
  const highest = positive[positive.length - 1]!;
  if (plausibleSeconds(toSeconds(lowest, unit), toSeconds(highest, unit))) return null;
  const middle = (u: HistogramUnit) =>
    Math.abs((Math.log10(toSeconds(lowest, u)) + Math.log10(toSeconds(highest, u))) / 2 + 1);
  const fits = HISTOGRAM_UNITS.filter((u) => plausibleSeconds(toSeconds(lowest, u), toSeconds(highest, u))).sort(
    (a, b) => middle(a) - middle(b),
  );
  const suggestedUnit = fits[0] ?? null;
  const range = `${plain(lowest)} … ${plain(highest)}`;
  const asRead = `read as ${unit} they put the smallest bucket at ${plain(toSeconds(lowest, unit))} s and the largest at ${plain(toSeconds(highest, unit))} s`;
  return {
    unit,
    suggestedUnit,
    message: suggestedUnit
      ? `The bucket bounds (${range}) look like ${suggestedUnit}, not ${unit}: ${asRead}.`
      : `The bucket bounds (${range}) do not look like latency bounds in any unit: ${asRead}.`,
  };
}
