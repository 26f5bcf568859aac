import type { MetricSource } from "./budget";

// What a histogram's numbers mean. Everything the app shows is in milliseconds; a histogram's
// `le` bounds are in its own unit. A source may say its unit and kind; when it does not, the
// unit is read from the metric's name (the Prometheus and OpenTelemetry naming conventions put
// it there) and the kind is "classic" (`_bucket` series with `le`).

export const HISTOGRAM_UNITS = ["seconds", "milliseconds"] as const;
export type HistogramUnit = (typeof HISTOGRAM_UNITS)[number];

export const HISTOGRAM_KINDS = ["classic", "native"] as const;
export type HistogramKind = (typeof HISTOGRAM_KINDS)[number];

/** Milliseconds in one unit of the histogram. */
export const MS_PER_UNIT: Record<HistogramUnit, number> = { seconds: 1000, milliseconds: 1 };

/**
 * The unit a metric's name states, or null when it states none. `_milliseconds` and `_ms` (as a
 * whole word of the name) are milliseconds, `_seconds` is seconds: `vllm:e2e_request_latency_seconds`,
 * `traces_span_metrics_duration_milliseconds`, `http_server_duration_ms`. A name that only
 * contains the letters ("params_count") states nothing.
 */
export function unitFromName(metric: string): HistogramUnit | null {
  const words = metric.toLowerCase().split(/[_:]/);
  // The last unit word wins: "latency_seconds_ms" would be odd, but it is in ms.
  for (let i = words.length - 1; i >= 0; i--) {
    const word = words[i];
    if (word === "milliseconds" || word === "ms") return "milliseconds";
    if (word === "seconds") return "seconds";
  }
  return null;
}

/**
 * The unit Prometheus's metadata states (`unit` from OpenMetrics, else the HELP text's
 * "(milliseconds)"/"in ms"), or null.
 */
export function unitFromMetadata(metadata: { unit?: string; help?: string } | null | undefined): HistogramUnit | null {
  if (!metadata) return null;
  const unit = metadata.unit?.trim().toLowerCase();
  if (unit === "milliseconds" || unit === "ms") return "milliseconds";
  if (unit === "seconds" || unit === "s") return "seconds";
  const help = metadata.help?.toLowerCase() ?? "";
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
  return unit === "seconds" ? value : value / 1000;
}

/** Milliseconds → the histogram's own unit: 400 ms is le="0.4" on seconds, le="400" on milliseconds. */
export function msToUnit(ms: number, unit: HistogramUnit): number {
  return ms / MS_PER_UNIT[unit];
}
