import "server-only";
import type { MetricSource } from "@/lib/domain/budget";
import { formatMs } from "@/lib/domain/format";
import { parseLe } from "@/lib/domain/histogram";
import { resolveThreshold, type ThresholdMode } from "@/lib/domain/slo";
import { fetchLeValues } from "./buckets";
import type { PrometheusClient } from "./client";
import { assertDuration, selector } from "./promql";

// The SLO's indicator as PromQL: "good" is the bucket at the threshold (or a weighted pair of
// buckets around it), "total" is the +Inf bucket. The same expressions feed the generated
// recording rules and the live timeslice queries, so both count the same requests.

/** One bucket of the good count, with the share of it that counts. */
export type GoodTerm = { le: string; weight: number };

export type CountedThreshold = {
  /** "assumed" when the bucket bounds were unknown (no data yet) and the threshold was used as `le`. */
  mode: ThresholdMode | "assumed";
  terms: GoodTerm[];
  /** One sentence for people: how the threshold was counted. */
  explanation: string;
};

/** A number as PromQL and YAML print it: shortest round-trip form, no float noise. */
export function promNumber(value: number): string {
  return String(Number(value.toPrecision(12)));
}

/**
 * How `thresholdMs` is counted against the histogram's real `le` values (as Prometheus reports
 * them: "1", "1.0" and "1e+00" are different series), the same way the SLO page counts it.
 */
export function countThreshold(
  thresholdMs: number,
  leValues: readonly string[] | null,
  preference: "snap" | "interpolate",
): CountedThreshold {
  const seconds = thresholdMs / 1000;
  const byBound = new Map<number, string>();
  for (const le of leValues ?? []) {
    const bound = parseLe(le);
    if (Number.isFinite(bound)) byBound.set(bound, le);
  }
  if (byBound.size === 0)
    return {
      mode: "assumed",
      terms: [{ le: promNumber(seconds), weight: 1 }],
      explanation: `The histogram's buckets were unknown when these rules were generated, so ${formatMs(thresholdMs)} is assumed to be a bucket bound (le="${promNumber(seconds)}").`,
    };
  const resolution = resolveThreshold(seconds, [...byBound.keys()], preference);
  const { below, above } = resolution.neighbours;
  if (resolution.mode === "exact")
    return {
      mode: "exact",
      terms: [{ le: byBound.get(resolution.boundSeconds)!, weight: 1 }],
      explanation: `${formatMs(thresholdMs)} is a bucket bound: counted exactly.`,
    };
  if (resolution.mode === "snapped")
    return {
      mode: "snapped",
      terms: [{ le: byBound.get(resolution.boundSeconds)!, weight: 1 }],
      explanation: `${formatMs(thresholdMs)} is not a bucket bound: counted at the bound below it, ${formatMs(resolution.boundSeconds * 1000)} (attainment can only be understated).`,
    };
  const lower = below ?? 0;
  const share = (seconds - lower) / (above! - lower);
  const terms: GoodTerm[] = [{ le: byBound.get(above!)!, weight: share }];
  if (below !== null) terms.unshift({ le: byBound.get(below)!, weight: 1 - share });
  return {
    mode: "estimated",
    terms,
    explanation: `${formatMs(thresholdMs)} is not a bucket bound: interpolated between ${formatMs(lower * 1000)} and ${formatMs(above! * 1000)}.`,
  };
}

/** An SLO's threshold counted against its histogram's real `le` values, read from Prometheus when there is one. */
export async function countSloThreshold(
  client: PrometheusClient | null,
  slo: {
    source: Pick<MetricSource, "metric" | "matchers">;
    thresholdMs: number;
    thresholdMode: "snap" | "interpolate";
  },
  time: number,
): Promise<CountedThreshold> {
  const le = client ? await fetchLeValues(client, slo.source, time) : null;
  return countThreshold(slo.thresholdMs, le?.status === "success" ? le.le : null, slo.thresholdMode);
}

function bucketRate(source: Pick<MetricSource, "metric" | "matchers">, le: string, window: string): string {
  return `sum(rate(${selector(`${source.metric}_bucket`, { ...source.matchers, le })}[${assertDuration(window)}]))`;
}

/** Requests per second at or under the threshold over `window`. */
export function goodRateExpr(
  source: Pick<MetricSource, "metric" | "matchers">,
  counted: CountedThreshold,
  window: string,
): string {
  return counted.terms
    .map(({ le, weight }) =>
      weight === 1 ? bucketRate(source, le, window) : `${promNumber(weight)} * ${bucketRate(source, le, window)}`,
    )
    .join(" + ");
}

/** All requests per second over `window`: the +Inf bucket. */
export function totalRateExpr(source: Pick<MetricSource, "metric" | "matchers">, window: string): string {
  return bucketRate(source, "+Inf", window);
}

/** 1 for a slice whose share of good requests met `target`, 0 for one that did not, nothing without traffic. */
export function sliceGoodExpr(
  source: Pick<MetricSource, "metric" | "matchers">,
  counted: CountedThreshold,
  sliceMinutes: number,
  target: number,
): string {
  const slice = `${sliceMinutes}m`;
  return `(${goodRateExpr(source, counted, slice)}) / (${totalRateExpr(source, slice)} > 0) >= bool ${promNumber(target)}`;
}
