import "server-only";
import { z } from "zod";
import { presetOf, type MetricRole, type PresetId } from "@/lib/domain/presets";
import { parseLe } from "@/lib/domain/histogram";
import {
  checkUnit,
  resolveUnit,
  type HistogramKind,
  type HistogramUnit,
  type UnitResolution,
} from "@/lib/domain/units";
import { AppError } from "@/lib/errors";
import type { PrometheusClient } from "@/lib/prometheus/client";
import { assertMetricName, isMetricName, selector as seriesSelector, stringLiteral } from "@/lib/prometheus/promql";
import { parseInput } from "@/lib/schemas/parse";
import { storable } from "@/lib/schemas/text";
import type { Actor } from "./actor";
import { guardedRead } from "./mutation";

// What the connected Prometheus has: every histogram by name, classic (`_bucket` series) or
// native, its unit (name, then metadata), the preset and role that know it, and its label values.
// Every answer is bounded: at most LIMITS.histograms histograms, LIMITS.series series read per
// histogram (topk), LIMITS.values values per label. What was cut is said, never silently dropped.

export const DISCOVERY_LIMITS = { histograms: 100, series: 500, values: 50, metadataNames: 10_000 } as const;

/** Labels that are never matchers: the bucket bound, the name, and Prometheus's own target labels. */
const SKIPPED_LABELS = new Set(["le", "__name__"]);

export type DiscoveredHistogram = {
  metric: string;
  kind: HistogramKind;
  unit: HistogramUnit;
  unitFrom: UnitResolution["from"];
  preset: PresetId | null;
  role: MetricRole | null;
  /** Label name → values seen (at most DISCOVERY_LIMITS.values each), sorted. */
  labels: Record<string, string[]>;
  /** Series of the histogram now (one per label set); null when not read. */
  series: number | null;
  /** Labels whose values were cut at the limit, or read from only the first series. */
  truncated: boolean;
  help: string | null;
  /**
   * When the bucket bounds cannot be latency bounds in `unit` (5 … 10000 read as seconds): why,
   * and the unit they fit (null when none does). A native histogram's bounds are those of the
   * positive buckets that hold observations now (it has no `le`).
   */
  unitWarning: string | null;
  suggestedUnit: HistogramUnit | null;
};

export type Discovery = {
  histograms: DiscoveredHistogram[];
  /** Histograms that matched but were cut by the limit. */
  omitted: number;
  truncated: boolean;
  limits: typeof DISCOVERY_LIMITS;
  note: string | null;
};

const querySchema = z.object({
  match: storable(z.string().max(200, "match is at most 200 characters"), "match").optional(),
});

type Metadata = Record<string, { type: string; help: string; unit: string }[]>;

function unavailable(error: string): never {
  throw new AppError("UNAVAILABLE", `Prometheus did not answer: ${error}`);
}

/** Label values of up to DISCOVERY_LIMITS.series series, per histogram name, in one query for all. */
function collectLabels(samples: { metric: Record<string, string> }[]): {
  labels: Record<string, string[]>;
  truncated: boolean;
} {
  const sets = new Map<string, Set<string>>();
  let truncated = false;
  for (const { metric } of samples)
    for (const [name, value] of Object.entries(metric)) {
      if (SKIPPED_LABELS.has(name)) continue;
      const set = sets.get(name) ?? new Set<string>();
      if (set.size < DISCOVERY_LIMITS.values) set.add(value);
      else if (!set.has(value)) truncated = true;
      sets.set(name, set);
    }
  const labels = Object.fromEntries(
    [...sets.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, set]) => [name, [...set].sort()]),
  );
  return { labels, truncated };
}

const nameRegex = (names: string[]) => stringLiteral(`^(?:${names.map(assertMetricName).join("|")})$`);

export const discoverHistograms = guardedRead(
  "discovery.read",
  async ({ prom, query }: { prom: PrometheusClient | null; actor: Actor; query: unknown }): Promise<Discovery> =>
    discover(prom, query),
);

async function discover(prom: PrometheusClient | null, query: unknown): Promise<Discovery> {
  const { match } = parseInput(querySchema, query, "The query");
  if (!prom) throw new AppError("UNAVAILABLE", "Prometheus is not configured: set PROMETHEUS_URL.");

  const [names, metadata] = await Promise.all([
    prom.get<string[]>("/api/v1/label/__name__/values"),
    prom.get<Metadata>(`/api/v1/metadata?limit=${DISCOVERY_LIMITS.metadataNames}`),
  ]);
  if (names.status !== "success") unavailable(names.error);
  const meta: Metadata = metadata.status === "success" ? metadata.data : {};
  // Names outside the classic alphabet (Prometheus 3's UTF-8 names, `a.b`) cannot be stored as a source.
  const all = new Set(names.data.filter(isMetricName));
  const classic = [...all].filter((n) => n.endsWith("_bucket")).map((n) => n.slice(0, -"_bucket".length));
  // A native histogram is a series under its own name whose metadata says histogram, with no _bucket sibling.
  const native = Object.entries(meta)
    .filter(
      ([name, entries]) => all.has(name) && !all.has(`${name}_bucket`) && entries.some((e) => e.type === "histogram"),
    )
    .map(([name]) => name);
  const needle = match?.trim().toLowerCase() ?? "";
  const found = [
    ...classic.map((metric) => ({ metric, kind: "classic" as const })),
    ...native.map((metric) => ({ metric, kind: "native" as const })),
  ]
    .filter(({ metric }) => metric.toLowerCase().includes(needle))
    // Known presets first (what a team most likely wants), then by name.
    .sort((a, b) => Number(!presetOf(a.metric)) - Number(!presetOf(b.metric)) || a.metric.localeCompare(b.metric));
  const shown = found.slice(0, DISCOVERY_LIMITS.histograms);

  // Series and label values: for classic histograms one query over every `_count` series (topk per
  // name bounds the answer), one count; a native histogram is one query of its own.
  const classicShown = shown.filter((h) => h.kind === "classic").map((h) => `${h.metric}_count`);
  const samplesByName = new Map<string, { metric: Record<string, string> }[]>();
  const counts = new Map<string, number>();
  const boundsByName = new Map<string, number[]>();
  const time = Math.floor(Date.now() / 1000);
  const reads: Promise<void>[] = [];
  if (classicShown.length) {
    const selector = `{__name__=~${nameRegex(classicShown)}}`;
    reads.push(
      prom.query(`topk by (__name__) (${DISCOVERY_LIMITS.series}, ${selector})`, time).then((result) => {
        if (result.status !== "success") unavailable(result.error);
        for (const sample of result.samples) {
          const base = sample.metric.__name__!.slice(0, -"_count".length);
          samplesByName.set(base, [...(samplesByName.get(base) ?? []), sample]);
        }
      }),
      prom.query(`count by (__name__) (${selector})`, time).then((result) => {
        if (result.status !== "success") unavailable(result.error);
        for (const sample of result.samples)
          counts.set(sample.metric.__name__!.slice(0, -"_count".length), sample.value);
      }),
      // The `le` bounds of every classic histogram listed, to compare with its unit.
      prom
        .query(
          `count by (__name__, le) ({__name__=~${nameRegex(classicShown.map((n) => n.replace(/_count$/, "_bucket")))}})`,
          time,
        )
        .then((result) => {
          if (result.status !== "success") unavailable(result.error);
          for (const sample of result.samples) {
            const base = sample.metric.__name__!.slice(0, -"_bucket".length);
            const bound = parseLe(sample.metric.le ?? "");
            if (Number.isFinite(bound)) boundsByName.set(base, [...(boundsByName.get(base) ?? []), bound]);
          }
        }),
    );
  }
  for (const h of shown.filter((x) => x.kind === "native")) {
    const selector = seriesSelector(h.metric, {});
    reads.push(
      prom.query(`topk(${DISCOVERY_LIMITS.series}, histogram_count(${selector}))`, time).then((result) => {
        if (result.status !== "success") unavailable(result.error);
        samplesByName.set(h.metric, result.samples);
      }),
      prom.query(`count(histogram_count(${selector}))`, time).then((result) => {
        if (result.status !== "success") unavailable(result.error);
        counts.set(h.metric, result.samples[0]?.value ?? 0);
      }),
      // Its bucket bounds, to compare with its unit: the upper bounds of the positive buckets of
      // every series summed (the zero bucket, around 0, and negative buckets say nothing of a unit).
      prom.query(`sum(${selector})`, time).then((result) => {
        if (result.status !== "success") unavailable(result.error);
        const buckets = result.samples[0]?.histogram?.buckets ?? [];
        boundsByName.set(
          h.metric,
          buckets.filter(([, lower]) => Number(lower) > 0).map(([, , upper]) => Number(upper)),
        );
      }),
    );
  }
  await Promise.all(reads);

  let anyTruncated = found.length > shown.length;
  const histograms = shown.map(({ metric, kind }): DiscoveredHistogram => {
    const entry = meta[metric]?.find((e) => e.type === "histogram") ?? meta[metric]?.[0] ?? null;
    const unit = resolveUnit({ metric }, entry);
    const known = presetOf(metric);
    const { labels, truncated: cut } = collectLabels(samplesByName.get(metric) ?? []);
    const series = counts.get(metric) ?? null;
    const truncated = cut || (series !== null && series > DISCOVERY_LIMITS.series);
    anyTruncated ||= truncated;
    const check = checkUnit(boundsByName.get(metric) ?? [], unit.unit);
    return {
      metric,
      kind,
      unit: unit.unit,
      unitFrom: unit.from,
      preset: known?.preset ?? null,
      role: known?.role ?? null,
      labels,
      series,
      truncated,
      help: entry?.help || null,
      unitWarning: check?.message ?? null,
      suggestedUnit: check?.suggestedUnit ?? null,
    };
  });
  const omitted = found.length - shown.length;
  return {
    histograms,
    omitted,
    truncated: anyTruncated,
    limits: DISCOVERY_LIMITS,
    note:
      omitted > 0
        ? `${found.length} histograms match; the first ${shown.length} are listed. Narrow the list with ?match=.`
        : anyTruncated
          ? `Some histograms have more series or label values than are read here (${DISCOVERY_LIMITS.series} series, ${DISCOVERY_LIMITS.values} values per label): their label values are a sample.`
          : null,
  };
}
