import "server-only";
import type { MetricSource } from "@/lib/domain/budget";
import { nativeToCumulative, parseLe, parsePrometheusFloat, type Bucket } from "@/lib/domain/histogram";
import { kindOf, toSeconds, unitOf, type HistogramKind, type HistogramUnit } from "@/lib/domain/units";
import type { NativeHistogramValue, PrometheusClient, QueryResult, Sample } from "./client";
import { assumedKind, learnHistogram } from "./kinds";
import { queryRange } from "./range";
import {
  bucketSelector,
  nativeQuery,
  nativeSelector,
  PromQLBuildError,
  taggedBucketQuery,
  windowedBucketQuery,
} from "./promql";

// Histogram buckets of many sources, or of one source over many windows: one query for all the
// classic histograms, one per native histogram. Whatever the histogram's unit and kind, the
// answer is cumulative buckets whose bounds are in seconds: classic `le` bounds are scaled from
// the histogram's unit, native histograms are turned into cumulative buckets. Every view's math
// starts from that one shape.

export const GROUP_LABEL = "lb_group";

type Source = Pick<MetricSource, "metric" | "matchers" | "unit" | "kind">;

export type BucketGroups = {
  status: "success";
  groups: Map<string, Bucket[]>;
  warnings: string[];
  query: string;
  /** fetchBucketIncreases: the kind the source was read as (as stored, else as Prometheus has it). */
  kind?: HistogramKind;
};
export type BucketFailure = { status: "error"; errorType: string; error: string; query: string };

/** A native histogram sample as cumulative buckets in seconds. */
export function nativeSampleBuckets(sample: Pick<Sample, "histogram">, unit: HistogramUnit): Bucket[] | null {
  const histogram: NativeHistogramValue | undefined = sample.histogram;
  if (!histogram) return null;
  const buckets = (histogram.buckets ?? []).map(([, lower, upper, count]) => ({
    lower: toSeconds(parsePrometheusFloat(lower), unit),
    upper: toSeconds(parsePrometheusFloat(upper), unit),
    count: parsePrometheusFloat(count),
  }));
  return nativeToCumulative(buckets, parsePrometheusFloat(histogram.count));
}

/** A query, and the group its whole answer belongs to when it is one native histogram. */
type Part = { query: string; key?: string };

function group(
  result: QueryResult & { status: "success" },
  part: Part,
  unitOfKey: (key: string) => HistogramUnit,
  into: Map<string, Bucket[]>,
) {
  for (const sample of result.samples) {
    const key = part.key ?? sample.metric[GROUP_LABEL];
    if (key === undefined) continue;
    if (sample.histogram) {
      const buckets = nativeSampleBuckets(sample, unitOfKey(key));
      if (buckets) into.set(key, buckets);
      continue;
    }
    const le = sample.metric.le;
    if (le === undefined || Number.isNaN(sample.value)) continue;
    const list = into.get(key) ?? [];
    list.push({ upperBound: toSeconds(parseLe(le), unitOfKey(key)), count: sample.value });
    into.set(key, list);
  }
}

/**
 * Runs the parts side by side and merges their groups. Classic histograms of all sources share
 * one query; each native histogram is a query of its own, because Prometheus 2.x's label_replace
 * turns a histogram sample into a float 0, so natives cannot be tagged into one answer there.
 */
async function run(
  client: PrometheusClient,
  parts: Part[],
  time: number,
  unitOfKey: (key: string) => HistogramUnit,
): Promise<BucketGroups | BucketFailure> {
  const query = parts.map((p) => p.query).join("\n");
  const results = await Promise.all(parts.map((p) => client.query(p.query, time)));
  const groups = new Map<string, Bucket[]>();
  const warnings: string[] = [];
  for (const [i, result] of results.entries()) {
    if (result.status !== "success") return { ...result, query };
    group(result, parts[i]!, unitOfKey, groups);
    warnings.push(...result.warnings);
  }
  return { status: "success", groups, warnings, query };
}

type Keyed = { key: string; source: Source };

/**
 * Reads sources stored without a kind (./kinds.ts) at no extra cost when they are classic: each is
 * read as the kind learned before, else as classic; only one whose answer is empty makes
 * Prometheus be asked what it has, and it is read again when that is a native histogram.
 */
async function readLazily<R extends { status: "success" } | BucketFailure>(
  client: PrometheusClient,
  stored: Keyed[],
  read: (sources: Keyed[]) => Promise<R>,
  isEmpty: (result: R & { status: "success" }, key: string) => boolean,
  merge: (into: R & { status: "success" }, more: R & { status: "success" }) => void,
): Promise<R> {
  const { readable, unwritable } = partitionWritable(stored);
  if (readable.length === 0 && unwritable.length > 0)
    return { status: "error", errorType: "bad_source", error: unwritable.join("; "), query: "" } as BucketFailure as R;
  const assumed = readable.map(({ key, source }) => ({ key, ...assumedKind(client, source) }));
  const result = await read(assumed.map(({ key, source }) => ({ key, source })));
  if (result.status !== "success") return result;
  const success = result as R & { status: "success" };
  const open = assumed.filter(({ key, settled }) => !settled && isEmpty(success, key));
  const native: Keyed[] = [];
  for (const { key, source } of open)
    if ((await learnHistogram(client, source.metric, source.matchers)).kind === "native")
      native.push({ key, source: { ...source, kind: "native" } });
  if (native.length > 0) {
    const more = await read(native);
    if (more.status !== "success") return more;
    merge(success, more as R & { status: "success" });
  }
  if ("warnings" in success && Array.isArray(success.warnings)) success.warnings.push(...unwritable);
  return result;
}

/**
 * Sources whose PromQL cannot be written (a name stored before names were checked, or written
 * to the database by hand) are left out with a warning and read as no data, so one of them never
 * fails the question that every other source of a view, or of the status board, shares.
 */
function partitionWritable(stored: Keyed[]): { readable: Keyed[]; unwritable: string[] } {
  const readable: Keyed[] = [];
  const unwritable: string[] = [];
  for (const entry of stored) {
    try {
      bucketSelector(entry.source);
      nativeSelector(entry.source);
      readable.push(entry);
    } catch (error) {
      if (!(error instanceof PromQLBuildError)) throw error;
      unwritable.push(`${JSON.stringify(entry.source.metric)} cannot be read: ${error.message}`);
    }
  }
  return { readable, unwritable };
}

function mergeGroups(into: BucketGroups, more: BucketGroups) {
  for (const [key, buckets] of more.groups) into.groups.set(key, buckets);
  into.warnings.push(...more.warnings);
  into.query = [into.query, more.query].filter(Boolean).join("\n");
}

export function fetchBucketRates(
  client: PrometheusClient,
  stored: Keyed[],
  options: { window: string; time: number },
): Promise<BucketGroups | BucketFailure> {
  return readLazily(
    client,
    stored,
    (sources) => readBucketRates(client, sources, options),
    (result, key) => !result.groups.get(key)?.length,
    mergeGroups,
  );
}

async function readBucketRates(
  client: PrometheusClient,
  sources: Keyed[],
  options: { window: string; time: number },
): Promise<BucketGroups | BucketFailure> {
  const units = new Map(sources.map(({ key, source }) => [key, unitOf(source)]));
  const parts = rateParts(sources, options.window);
  if (parts.length === 0) return { status: "success", groups: new Map(), warnings: [], query: "" };
  return run(client, parts, options.time, (key) => units.get(key) ?? "seconds");
}

/** The parts of a bucket-rate question: one tagged query for the classic histograms, one per native. */
function rateParts(sources: { key: string; source: Source }[], window: string): Part[] {
  const classic = sources.filter(({ source }) => kindOf(source) === "classic");
  const native = sources.filter(({ source }) => kindOf(source) === "native");
  return [
    ...(classic.length ? [{ query: taggedBucketQuery(classic, { fn: "rate", window, groupLabel: GROUP_LABEL }) }] : []),
    ...native.map(({ key, source }) => ({ key, query: nativeQuery(source, "rate", window) })),
  ];
}

export type BucketTimeline =
  | { status: "success"; times: number[]; groups: Map<string, Bucket[]>[]; warnings: string[]; query: string }
  | BucketFailure;

/**
 * The same buckets as fetchBucketRates, at every step of [start, end]: one query_range per part
 * (all classic sources together, each native histogram alone). `groups[i]` holds the buckets at
 * `times[i]`, so any view built on one instant's buckets can be built at each step.
 */
export function fetchBucketRateRange(
  client: PrometheusClient,
  stored: Keyed[],
  options: { window: string; start: number; end: number; step: number },
): Promise<BucketTimeline> {
  return readLazily(
    client,
    stored,
    (sources) => readBucketRateRange(client, sources, options),
    (result, key) => result.groups.every((at) => !at.get(key)?.length),
    (into, more) => {
      more.groups.forEach((at, i) => at.forEach((buckets, key) => into.groups[i]?.set(key, buckets)));
      into.query = [into.query, more.query].filter(Boolean).join("\n");
    },
  );
}

async function readBucketRateRange(
  client: PrometheusClient,
  sources: Keyed[],
  options: { window: string; start: number; end: number; step: number },
): Promise<BucketTimeline> {
  const times: number[] = [];
  for (let t = options.start; t <= options.end; t += options.step) times.push(t);
  const groups = times.map(() => new Map<string, Bucket[]>());
  const parts = rateParts(sources, options.window);
  const query = parts.map((p) => p.query).join("\n");
  if (parts.length === 0) return { status: "success", times, groups, warnings: [], query };
  const units = new Map(sources.map(({ key, source }) => [key, unitOf(source)]));
  const unitOfKey = (key: string) => units.get(key) ?? "seconds";
  const range = { start: options.start, end: options.end, step: options.step };
  const results = await Promise.all(parts.map((p) => queryRange(client, p.query, range)));
  const slot = (t: number) => Math.round((Number(t) - options.start) / options.step);
  for (const [i, result] of results.entries()) {
    if (result.status !== "success") return { ...result, query };
    const part = parts[i]!;
    for (const series of result.series) {
      const key = part.key ?? series.metric[GROUP_LABEL];
      if (key === undefined) continue;
      for (const [t, histogram] of series.histograms ?? []) {
        const buckets = nativeSampleBuckets({ histogram }, unitOfKey(key));
        const at = groups[slot(t)];
        if (buckets && at) at.set(key, buckets);
      }
      const le = series.metric.le;
      if (le === undefined) continue;
      const upperBound = toSeconds(parseLe(le), unitOfKey(key));
      for (const [t, count] of series.points) {
        const at = groups[slot(t)];
        if (!at || Number.isNaN(count)) continue;
        const list = at.get(key) ?? [];
        list.push({ upperBound, count });
        at.set(key, list);
      }
    }
  }
  return { status: "success", times, groups, warnings: [], query };
}

export async function fetchBucketIncreases(
  client: PrometheusClient,
  stored: Source,
  options: { windows: readonly string[]; time: number },
): Promise<BucketGroups | BucketFailure> {
  let kind: HistogramKind = kindOf(assumedKind(client, stored).source);
  const result = await readLazily(
    client,
    [{ key: "", source: stored }],
    async ([one]) => {
      kind = kindOf(one!.source);
      return readBucketIncreases(client, one!.source, options);
    },
    (result) => [...result.groups.values()].every((buckets) => buckets.length === 0),
    (into, more) => {
      into.groups = more.groups;
      into.query = more.query;
    },
  );
  return result.status === "success" ? { ...result, kind } : result;
}

async function readBucketIncreases(
  client: PrometheusClient,
  source: Source,
  options: { windows: readonly string[]; time: number },
): Promise<BucketGroups | BucketFailure> {
  const parts: Part[] =
    kindOf(source) === "native"
      ? options.windows.map((window) => ({ key: window, query: nativeQuery(source, "increase", window) }))
      : [{ query: windowedBucketQuery(source, options.windows, GROUP_LABEL) }];
  const unit = unitOf(source);
  return run(client, parts, options.time, () => unit);
}

/** A bucket bound as its exporter writes it ("1", "1.0", "+Inf", "400") and in seconds. */
export type LeBound = { le: string; seconds: number };

/**
 * The histogram's `le` values exactly as its exporter writes them, with their bounds in seconds.
 * A native histogram has no `le`: its bounds are those of the buckets that have observations now.
 */
type LeValues = { status: "success"; le: string[]; bounds: LeBound[]; kind: HistogramKind };

export function fetchLeValues(
  client: PrometheusClient,
  stored: Source,
  time: number,
): Promise<LeValues | BucketFailure> {
  return readLazily(
    client,
    [{ key: "", source: stored }],
    ([one]) => readLeValues(client, one!.source, time),
    (result) => result.le.length === 0 && result.bounds.length === 0,
    (into, more) => Object.assign(into, more),
  );
}

async function readLeValues(client: PrometheusClient, source: Source, time: number): Promise<LeValues | BucketFailure> {
  const unit = unitOf(source);
  if (kindOf(source) === "native") {
    const query = `sum(${nativeSelector(source)})`;
    const result = await client.query(query, time);
    if (result.status !== "success") return { ...result, query };
    const buckets = result.samples[0] ? (nativeSampleBuckets(result.samples[0], unit) ?? []) : [];
    const bounds = buckets.filter((b) => Number.isFinite(b.upperBound)).map((b) => ({ le: "", seconds: b.upperBound }));
    return { status: "success", le: [], bounds, kind: "native" };
  }
  const query = `count by (le) (${bucketSelector(source)})`;
  const result = await client.query(query, time);
  if (result.status !== "success") return { ...result, query };
  const le = result.samples.map((s) => s.metric.le).filter((v): v is string => v !== undefined);
  return {
    status: "success",
    le,
    bounds: le.map((v) => ({ le: v, seconds: toSeconds(parseLe(v), unit) })),
    kind: "classic",
  };
}
