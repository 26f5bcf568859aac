import "server-only";
import type { MetricSource } from "@/lib/domain/budget";
import { formatMs } from "@/lib/domain/format";
import { parseLe } from "@/lib/domain/histogram";
import { resolveThreshold, type ThresholdMode } from "@/lib/domain/slo";
import { kindOf, msToUnit, unitOf, unitToMs, type HistogramUnit } from "@/lib/domain/units";
import { fetchLeValues } from "./buckets";
import type { PrometheusClient } from "./client";
import { assumedKind } from "./kinds";
import { assertDuration, nativeQuery, selector } from "./promql";

// The SLO's indicator as PromQL: "good" is the bucket at the threshold (or a weighted pair of
// buckets around it), "total" is the +Inf bucket. The same expressions feed the generated
// recording rules and the live timeslice queries, so both count the same requests.

/** One bucket of the good count, with the share of it that counts. */
export type GoodTerm = { le: string; weight: number };

export type CountedThreshold = {
  /**
   * "assumed" when the bucket bounds were unknown (no data yet) and the threshold was used as `le`;
   * "fraction" for a native histogram, counted by histogram_fraction up to `fractionUpTo`.
   */
  mode: ThresholdMode | "assumed" | "fraction";
  terms: GoodTerm[];
  /** Native histograms: the threshold in the histogram's own unit. */
  fractionUpTo?: number;
  /** One sentence for people: how the threshold was counted. */
  explanation: string;
};

/** A number as PromQL and YAML print it: shortest round-trip form, no float noise. */
export function promNumber(value: number): string {
  return String(Number(value.toPrecision(12)));
}

/**
 * How `thresholdMs` is counted against the histogram's real `le` values (as Prometheus reports
 * them: "1", "1.0" and "1e+00" are different series, in the histogram's own unit), the same way
 * the SLO page counts it. Where several spellings of one bound coexist (an exporter or a
 * Prometheus upgrade rewrote them), every spelling is counted, as the page merges them.
 */
export function countThreshold(
  thresholdMs: number,
  leValues: readonly string[] | null,
  preference: "snap" | "interpolate",
  unit: HistogramUnit = "seconds",
): CountedThreshold {
  const spellings = new Map<number, string[]>();
  for (const le of leValues ?? []) {
    const bound = parseLe(le);
    if (Number.isFinite(bound)) spellings.set(bound, [...(spellings.get(bound) ?? []), le].sort());
  }
  const terms = (bound: number, weight: number): GoodTerm[] => spellings.get(bound)!.map((le) => ({ le, weight }));
  const ms = (bound: number) => formatMs(unitToMs(bound, unit));
  if (spellings.size === 0) {
    const le = promNumber(msToUnit(thresholdMs, unit));
    return {
      mode: "assumed",
      terms: [{ le, weight: 1 }],
      explanation: `The histogram's buckets were unknown when these rules were generated, so ${formatMs(thresholdMs)} is assumed to be a bucket bound (le="${le}").`,
    };
  }
  const inUnit = msToUnit(thresholdMs, unit);
  const resolution = resolveThreshold(inUnit, [...spellings.keys()], preference);
  const { below, above } = resolution.neighbours;
  if (resolution.mode === "exact")
    return {
      mode: "exact",
      terms: terms(resolution.boundSeconds, 1),
      explanation: `${formatMs(thresholdMs)} is a bucket bound: counted exactly.`,
    };
  if (resolution.mode === "snapped")
    return {
      mode: "snapped",
      terms: terms(resolution.boundSeconds, 1),
      explanation: `${formatMs(thresholdMs)} is not a bucket bound: counted at the bound below it, ${ms(resolution.boundSeconds)} (attainment can only be understated).`,
    };
  const lower = below ?? 0;
  const share = (inUnit - lower) / (above! - lower);
  const counted = below !== null ? [...terms(below, 1 - share), ...terms(above!, share)] : terms(above!, share);
  return {
    mode: "estimated",
    terms: counted,
    explanation: `${formatMs(thresholdMs)} is not a bucket bound: interpolated between ${ms(lower)} and ${ms(above!)}.`,
  };
}

/** A native histogram's threshold: histogram_fraction counts it at any value, interpolating only inside one narrow bucket. */
export function nativeThreshold(thresholdMs: number, unit: HistogramUnit): CountedThreshold {
  return {
    mode: "fraction",
    terms: [],
    fractionUpTo: msToUnit(thresholdMs, unit),
    explanation: `${formatMs(thresholdMs)} is counted by histogram_fraction on the native histogram: no bucket to snap to, interpolated only inside the native bucket that holds it.`,
  };
}

/** An SLO's threshold counted against its histogram's real `le` values, read from Prometheus when there is one. */
export async function countSloThreshold(
  client: PrometheusClient | null,
  slo: {
    source: Pick<MetricSource, "metric" | "matchers" | "unit" | "kind">;
    thresholdMs: number;
    thresholdMode: "snap" | "interpolate";
  },
  time: number,
): Promise<CountedThreshold> {
  const source = client ? assumedKind(client, slo.source).source : slo.source;
  const unit = unitOf(source);
  if (kindOf(source) === "native") return nativeThreshold(slo.thresholdMs, unit);
  // A source stored without kind that has no `_bucket` series is read as the native histogram it is.
  const le = client ? await fetchLeValues(client, slo.source, time) : null;
  if (le?.status === "success" && le.kind === "native") return nativeThreshold(slo.thresholdMs, unit);
  return countThreshold(slo.thresholdMs, le?.status === "success" ? le.le : null, slo.thresholdMode, unit);
}

type SliSource = Pick<MetricSource, "metric" | "matchers" | "kind">;

function bucketRate(source: SliSource, le: string, window: string): string {
  return `sum(rate(${selector(`${source.metric}_bucket`, { ...source.matchers, le })}[${assertDuration(window)}]))`;
}

/** Requests per second at or under the threshold over `window`. */
export function goodRateExpr(source: SliSource, counted: CountedThreshold, window: string): string {
  if (kindOf(source) === "native") {
    const rate = nativeQuery(source, "rate", window);
    return `histogram_fraction(0, ${promNumber(counted.fractionUpTo ?? 0)}, ${rate}) * histogram_count(${rate})`;
  }
  return counted.terms
    .map(({ le, weight }) =>
      weight === 1 ? bucketRate(source, le, window) : `${promNumber(weight)} * ${bucketRate(source, le, window)}`,
    )
    .join(" + ");
}

/** All requests per second over `window`: the +Inf bucket. */
export function totalRateExpr(source: SliSource, window: string): string {
  if (kindOf(source) === "native") return `histogram_count(${nativeQuery(source, "rate", window)})`;
  return bucketRate(source, "+Inf", window);
}

/** 1 for a slice whose share of good requests met `target`, 0 for one that did not, nothing without traffic. */
export function sliceGoodExpr(
  source: SliSource,
  counted: CountedThreshold,
  sliceMinutes: number,
  target: number,
): string {
  const slice = `${sliceMinutes}m`;
  return `(${goodRateExpr(source, counted, slice)}) / (${totalRateExpr(source, slice)} > 0) >= bool ${promNumber(target)}`;
}
