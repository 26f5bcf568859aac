import "server-only";
import { PERCENTILES, QUANTILE_OF, type PercentileKey } from "@/lib/domain/budget";
import { finiteBounds, histogramQuantile } from "@/lib/domain/histogram";
import {
  BURN_WINDOWS,
  alertStates,
  emptyBurnRates,
  evaluateSlo,
  resolveThreshold,
  WINDOW_SECONDS,
  type AlertState,
  type BurnWindow,
  type ThresholdMode,
} from "@/lib/domain/slo";
import type { Db } from "@/lib/db/client";
import { deleteSloRow, findSloRow, insertSlo, updateSloIfVersion, type SloRow } from "@/lib/db/slos";
import { AppError } from "@/lib/errors";
import { periodStart } from "@/lib/domain/calendar";
import {
  checkUnit,
  kindOf,
  msToUnit,
  unitOf,
  type HistogramKind,
  type HistogramUnit,
  type UnitCheck,
} from "@/lib/domain/units";
import { fetchBucketIncreases, fetchLeValues, GROUP_LABEL } from "@/lib/prometheus/buckets";
import { loadedRules, sloGroupName } from "@/lib/prometheus/loaded-rules";
import { recordedSelector, recordName } from "@/lib/prometheus/rules";
import { leftOpenRange, stringLiteral } from "@/lib/prometheus/promql";
import { countSloThreshold, sliceGoodExpr, type CountedThreshold } from "@/lib/prometheus/sli";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { knownKind, withKind } from "@/lib/prometheus/kinds";
import { parseInput } from "@/lib/schemas/parse";
import {
  bucketBoundsInputSchema,
  durationSeconds,
  sloInputSchema,
  sloQuerySchema,
  sloUpdateSchema,
} from "@/lib/schemas/live";
import { authorOf, type Actor, type ServiceMutation } from "./actor";
import { recordAudit } from "./audit";
import { guardedRead, mutation } from "./mutation";
import { rulesChanged } from "./rules";
import { jsonCache } from "./json-cache";
import { getServiceOrThrow } from "./services";
import { forgetCachedSlos, getSlosForLiveView } from "./slo-definitions";
import { writeUnique } from "./unique";

export type SloStatus = {
  id: string;
  name: string;
  indicator: string;
  source: SloRow["source"];
  version: number;
  /** The SLO's own window, which sets its alert factors (a calendar window's nominal length). */
  windowDays: number;
  windowKind: SloRow["windowKind"];
  calendarUnit: SloRow["calendarUnit"];
  timeZone: string;
  budgetingMethod: SloRow["budgetingMethod"];
  timesliceMinutes: number | null;
  timesliceTarget: number | null;
  thresholdMs: number;
  thresholdMode: ThresholdMode;
  thresholdPreference: "snap" | "interpolate";
  /** The bound actually counted as good, in ms. */
  countedBoundMs: number | null;
  /** The histogram's kind and unit: a native one is counted by histogram_fraction, at any threshold. */
  histogramKind: HistogramKind;
  histogramUnit: HistogramUnit;
  bucketBoundsMs: number[];
  objective: number;
  /** The window viewed: a duration, or the calendar period so far (from periodStart). */
  window: string;
  periodStart: string | null;
  /** What good and total count: requests, or slices for timeslices. */
  unit: "requests" | "slices";
  good: number | null;
  total: number | null;
  attainment: number | null;
  errorBudgetRemaining: number | null;
  burnRates: Record<BurnWindow, number | null>;
  alerts: AlertState[];
  /** Where the long window came from: the recorded series of the generated rules, or raw buckets. */
  dataPath: { kind: "recorded" | "raw"; note: string };
  error: string | null;
};

type ViewWindow = { label: string; duration: string; seconds: number; periodStart: number | null };

function viewWindow(slo: SloRow, requested: string | undefined, time: number): ViewWindow {
  if (slo.windowKind === "calendar" && slo.calendarUnit && (requested === undefined || requested === "period")) {
    const start = periodStart(slo.calendarUnit, time * 1000, slo.timeZone) / 1000;
    const minutes = Math.max(1, Math.floor((time - start) / 60));
    return { label: "period", duration: `${minutes}m`, seconds: minutes * 60, periodStart: start };
  }
  const days = requested && requested !== "period" ? requested : `${slo.windowDays}d`;
  return { label: days, duration: days, seconds: durationSeconds(days), periodStart: null };
}

function baseStatus(slo: SloRow, view: ViewWindow, error: string | null): SloStatus {
  return {
    id: slo.id,
    name: slo.name,
    indicator: slo.indicator,
    source: slo.source,
    version: slo.version,
    windowDays: slo.windowDays,
    windowKind: slo.windowKind,
    calendarUnit: slo.calendarUnit,
    timeZone: slo.timeZone,
    budgetingMethod: slo.budgetingMethod,
    timesliceMinutes: slo.timesliceMinutes,
    timesliceTarget: slo.timesliceTarget,
    thresholdMs: slo.thresholdMs,
    thresholdMode: "exact",
    thresholdPreference: slo.thresholdMode,
    countedBoundMs: null,
    histogramKind: kindOf(slo.source),
    histogramUnit: unitOf(slo.source),
    bucketBoundsMs: [],
    objective: slo.objective,
    window: view.label,
    periodStart: view.periodStart === null ? null : new Date(view.periodStart * 1000).toISOString(),
    unit: slo.budgetingMethod === "timeslices" ? "slices" : "requests",
    good: null,
    total: null,
    attainment: null,
    errorBudgetRemaining: null,
    burnRates: emptyBurnRates(),
    alerts: alertStates(emptyBurnRates(), slo.windowDays * 86400, slo.objective),
    dataPath: { kind: "raw", note: "" },
    error,
  };
}

/** Several scalar-valued expressions in one query, each tagged with its key. */
async function tagged(
  prom: CoalescingClient,
  parts: [string, string][],
  time: number,
  /** Expressions that already carry their key in GROUP_LABEL (one selector, many keys). */
  preTagged: string[] = [],
) {
  const query = [
    ...preTagged,
    ...parts.map(([key, expr]) => `label_replace(${expr}, "${GROUP_LABEL}", "${key}", "", "")`),
  ].join(" or ");
  const result = await prom.query(query, time);
  if (result.status !== "success") return result;
  const values = new Map<string, number>();
  for (const sample of result.samples) {
    const key = sample.metric[GROUP_LABEL];
    if (key !== undefined && Number.isFinite(sample.value)) values.set(key, sample.value);
  }
  return { status: "success" as const, values };
}

/** The SLO's judgement from good and bad shares: attainment, budget left, burn rates, alerts. */
function judged(
  base: SloStatus,
  slo: SloRow,
  counts: { good: number; total: number } | null,
  errorRatios: Map<BurnWindow, number>,
): SloStatus {
  const burnRates = Object.fromEntries(
    BURN_WINDOWS.map((w) => {
      const ratio = errorRatios.get(w);
      return [w, ratio === undefined ? null : ratio / (1 - slo.objective)];
    }),
  ) as Record<BurnWindow, number | null>;
  const share = counts && counts.total > 0 ? counts.good / counts.total : null;
  return {
    ...base,
    good: counts?.good ?? null,
    total: counts?.total ?? null,
    attainment: share,
    errorBudgetRemaining: share === null ? null : 1 - (1 - share) / (1 - slo.objective),
    burnRates,
    alerts: alertStates(burnRates, slo.windowDays * 86400, slo.objective),
  };
}

/** Timeslices from raw buckets: slices aligned to the slice length, each good when its share met the target. */
async function timesliceStatus(
  prom: CoalescingClient,
  base: SloStatus,
  slo: SloRow,
  counted: CountedThreshold,
  view: ViewWindow,
  time: number,
): Promise<SloStatus> {
  const slice = sliceGoodExpr(slo.source, counted, slo.timesliceMinutes!, slo.timesliceTarget!);
  const step = `${slo.timesliceMinutes}m`;
  const windows = [view.duration, ...BURN_WINDOWS.filter((w) => w !== view.duration)];
  // [1h:5m] on Prometheus 2.x also holds the slice that ends at t − 1 h, before the window.
  const leftOpen = (w: string) => leftOpenRange(durationSeconds(w));
  const parts: [string, string][] = windows.flatMap((w): [string, string][] => [
    [`good:${w}`, `sum_over_time((${slice})[${leftOpen(w)}:${step}])`],
    [`total:${w}`, `count_over_time((${slice})[${leftOpen(w)}:${step}])`],
  ]);
  const result = await tagged(prom, parts, time);
  if (result.status !== "success") return { ...base, error: `Prometheus query failed: ${result.error}` };
  const ratios = new Map<BurnWindow, number>();
  for (const w of BURN_WINDOWS) {
    const total = result.values.get(`total:${w}`);
    if (total) ratios.set(w, 1 - (result.values.get(`good:${w}`) ?? 0) / total);
  }
  const total = result.values.get(`total:${view.duration}`) ?? 0;
  return judged(base, slo, { good: result.values.get(`good:${view.duration}`) ?? 0, total }, ratios);
}

/**
 * The long window [a, b] from the generated recording rules, without scanning it: the whole days
 * up to the last UTC midnight m are the recorded 1-day rates at D midnights (one subquery point
 * per day; `last_over_time` over an hour so a recording interval up to an hour still lands), and
 * the part-days on either side, [a, m − D days] and [m, b], are averages of the recorded 5-minute
 * rates. Σ rate × duration is the increase over the window: the same ratio of sums the raw path
 * computes, from a few hundred samples instead of a month of buckets.
 */
async function recordedStatus(
  prom: CoalescingClient,
  base: SloStatus,
  slo: SloRow,
  slug: string,
  view: ViewWindow,
  interval: number,
  time: number,
): Promise<SloStatus | { fallback: string }> {
  const own = (name: string) => recordedSelector(name, slug, slo.name);
  const DAY = 86400;
  const midnight = Math.floor(time / DAY) * DAY;
  const days = Math.max(0, Math.floor((midnight - (time - view.seconds)) / DAY));
  const tail = time - midnight;
  const head = midnight - days * DAY - (time - view.seconds);
  // A part-day of a minute holds one evaluation at most, and none when that one was missed (a
  // restart, a slow group, promtool's backfill at a block's edge): read back two evaluations, so
  // one missed sample never sends the view to raw buckets. The rate keeps the part's own weight.
  const reach = (seconds: number) => Math.max(seconds, 2 * interval);
  // All burn windows' error ratios with one selector, keyed by the window in the name.
  const ratios = `{__name__=~"${recordName.errorRatio("(?:5m|30m|1h|2h|6h|1d|3d)")}",service=${stringLiteral(slug)},slo=${stringLiteral(slo.name)}}`;
  const byWindow = `label_replace(${ratios}, "${GROUP_LABEL}", "ratio:$1", "__name__", ".*:rate(.+)")`;
  const parts: [string, string][] = [];
  const part = (key: string, expr: string) => parts.push([key, expr]);
  if (slo.budgetingMethod === "timeslices") {
    part("share", `avg_over_time(${own(recordName.sliceGood)}[${leftOpenRange(view.seconds)}])`);
    part("oldest", `count_over_time(${own(recordName.sliceGood)}[1h] offset ${view.seconds - 3600}s)`);
  } else {
    for (const kind of ["good", "total"] as const) {
      const name = kind === "good" ? recordName.good : recordName.total;
      if (days > 0)
        part(`${kind}:days`, `sum_over_time(last_over_time(${own(name("1d"))}[1h])[${days * DAY - 1}s:1d])`);
      if (tail >= 60) part(`${kind}:tail`, `avg_over_time(${own(name("5m"))}[${reach(tail)}s])`);
      if (head >= 60)
        part(
          `${kind}:head`,
          `avg_over_time(${own(name("5m"))}[${reach(head)}s] offset ${time - (midnight - days * DAY)}s)`,
        );
    }
    if (days > 0)
      part("days", `count_over_time(last_over_time(${own(recordName.total("1d"))}[1h])[${days * DAY - 1}s:1d])`);
  }
  const result = await tagged(prom, parts, time, [byWindow]);
  if (result.status !== "success") return { fallback: `the recorded series could not be read (${result.error})` };
  const { values } = result;
  const errorRatios = new Map<BurnWindow, number>();
  for (const b of BURN_WINDOWS) {
    const ratio = values.get(`ratio:${b}`);
    if (ratio !== undefined) errorRatios.set(b, ratio);
  }
  let counts: { good: number; total: number };
  if (slo.budgetingMethod === "timeslices") {
    if (!values.get("oldest"))
      return { fallback: `the recording rules' series do not reach back over the ${view.label} window yet` };
    const slices = Math.round(view.seconds / 60 / slo.timesliceMinutes!);
    counts = { total: slices, good: (values.get("share") ?? 0) * slices };
  } else {
    const covered = values.get("days") ?? 0;
    const missing =
      covered < days || (tail >= 60 && !values.has("total:tail")) || (head >= 60 && !values.has("total:head"));
    if (missing)
      return {
        fallback: `the recording rules' series cover ${covered} of the ${days} whole days of the ${view.label} window so far`,
      };
    const sum = (kind: "good" | "total") =>
      (values.get(`${kind}:days`) ?? 0) * DAY +
      (tail >= 60 ? (values.get(`${kind}:tail`) ?? 0) * tail : 0) +
      (head >= 60 ? (values.get(`${kind}:head`) ?? 0) * head : 0);
    counts = { good: sum("good"), total: sum("total") };
  }
  return {
    ...judged(base, slo, counts, errorRatios),
    dataPath: {
      kind: "recorded",
      note: `Read from the recording rules' series (${slo.budgetingMethod === "timeslices" ? recordName.sliceGood : `${recordName.good("1d")} per day`}), evaluated every ${interval} s; counts are estimated from rates.`,
    },
  };
}

export async function statusOf(
  prom: CoalescingClient | null,
  slug: string,
  stored: SloRow,
  requested: string | undefined,
  time: number,
): Promise<SloStatus> {
  // A source stored without its kind is read as the histogram Prometheus has (lib/prometheus/kinds.ts):
  // as learned before, else as classic until a read finds no _bucket series and learns it.
  const known = prom && !stored.source.kind ? knownKind(prom, stored.source.metric, stored.source.matchers) : null;
  let slo = known ? { ...stored, source: { ...stored.source, kind: known } } : stored;
  const view = viewWindow(slo, requested, time);
  const base = baseStatus(slo, view, prom ? null : "Prometheus is not configured: set PROMETHEUS_URL.");
  if (!prom) return base;
  const rules = await loadedRules(prom);
  const interval = rules.sloGroups.get(sloGroupName(slug, slo.name));
  let note = rules.error
    ? `Read from raw buckets: the rules API did not answer (${rules.error}).`
    : "Read from raw buckets: this SLO's recording rules are not loaded in Prometheus (see Download rules).";
  if (interval !== undefined && view.seconds > WINDOW_SECONDS["3d"]!) {
    // The recorded path never scans raw buckets over the long window: the bounds come from one
    // instant `count by (le)`, everything else from the recorded series.
    const [le, recorded] = await Promise.all([
      fetchLeValues(prom, slo.source, time),
      recordedStatus(prom, base, slo, slug, view, interval, time),
    ]);
    const bounds =
      le.status === "success"
        ? [...new Set(le.bounds.map((b) => b.seconds).filter(Number.isFinite))].sort((a, b) => a - b)
        : [];
    if (bounds.length > 0) {
      const resolution = resolveThreshold(slo.thresholdMs / 1000, bounds, thresholdPreference(slo));
      if (!("fallback" in recorded))
        return {
          ...recorded,
          thresholdMode: resolution.mode,
          countedBoundMs: resolution.boundSeconds * 1000,
          bucketBoundsMs: bounds.map((b) => b * 1000),
        };
      note = `Read from raw buckets: ${recorded.fallback}.`;
    } else {
      note = `Read from raw buckets: the histogram's bucket bounds could not be read.`;
    }
  } else if (interval !== undefined) {
    note = "Read from raw buckets: windows up to 3 days are cheap enough to read directly.";
  }
  const windows = [view.duration, ...BURN_WINDOWS.filter((w) => w !== view.duration)];
  const result = await fetchBucketIncreases(prom, stored.source, { windows, time });
  if (result.status === "error") return { ...base, error: `Prometheus query failed: ${result.error}` };
  if (result.kind && result.kind !== kindOf(slo.source)) {
    slo = { ...slo, source: { ...slo.source, kind: result.kind } };
    base.histogramKind = result.kind;
  }
  const evaluation = evaluateSlo(
    { ...slo, thresholdMode: thresholdPreference(slo), kind: kindOf(slo.source) },
    view.duration,
    result.groups,
  );
  if (!evaluation) return { ...base, error: `No data for ${slo.source.metric} over ${view.label}.` };
  const thresholds = {
    thresholdMode: evaluation.thresholdMode,
    countedBoundMs: evaluation.countedBoundMs,
    bucketBoundsMs: evaluation.bucketBoundsMs,
  };
  const dataPath = { kind: "raw" as const, note };
  if (slo.budgetingMethod === "timeslices") {
    const counted = await countSloThreshold(prom, slo, time);
    return { ...(await timesliceStatus(prom, { ...base, ...thresholds }, slo, counted, view, time)), dataPath };
  }
  return { ...base, ...evaluation, dataPath };
}

/** A native histogram has no bucket worth snapping to: its threshold is always interpolated (histogram_fraction). */
function thresholdPreference(slo: SloRow): "snap" | "interpolate" {
  return kindOf(slo.source) === "native" ? "interpolate" : slo.thresholdMode;
}

type SloStatusArgs = { db: Db; prom: CoalescingClient | null; slug: string; query?: unknown; now?: number };

/** The question a request asks: its window, the definitions it reads and the aligned time. */
async function prepareStatuses({ db, prom, slug, query = {}, now = Date.now() / 1000 }: SloStatusArgs) {
  const { window, at } = parseInput(sloQuerySchema, query, "The query");
  const definitions = await getSlosForLiveView({ db, slug });
  const time = prom ? prom.alignTime(at ?? now) : Math.floor(at ?? now);
  return { window, definitions, time };
}

/** The statuses of SLOs already read (the status board reads every service's at once), as of now. */
export function statusesOf(
  prom: CoalescingClient | null,
  slug: string,
  rows: SloRow[],
  now: number,
): Promise<SloStatus[]> {
  const time = prom ? prom.alignTime(now) : Math.floor(now);
  return Promise.all(rows.map((slo) => statusOf(prom, slug, slo, undefined, time)));
}

export async function getSloStatuses(args: SloStatusArgs): Promise<SloStatus[]> {
  const { window, definitions, time } = await prepareStatuses(args);
  return Promise.all(definitions.rows.map((slo) => statusOf(args.prom, args.slug, slo, window, time)));
}

const responses = jsonCache("slos", { ttlMs: 5000, maxEntries: 500 });

/** The SLO statuses for a page's first paint: the API's answer, from the same cache. */
export async function getSloStatusesForPage(args: SloStatusArgs): Promise<SloStatus[]> {
  return JSON.parse(await getSloStatusesJson(args)) as SloStatus[];
}

/** The SLO statuses as the API sends them, from the serialised-answer cache when they can be. */
export async function getSloStatusesJson(args: SloStatusArgs): Promise<string> {
  const { window, definitions, time } = await prepareStatuses(args);
  const key = `${args.prom?.baseUrl}|${args.slug}|${definitions.fingerprint}|${window ?? ""}|${time}`;
  return responses.get(
    key,
    () => Promise.all(definitions.rows.map((slo) => statusOf(args.prom, args.slug, slo, window, time))),
    (statuses) => statuses.every((status) => !status.error),
  );
}

const sloSummary = (slo: SloRow) =>
  `“${slo.name}”: ${(slo.objective * 100).toFixed(slo.objective >= 0.999 ? 2 : 1)}% ≤ ${slo.thresholdMs} ms over ${slo.windowDays} days`;

export const createSlo = mutation(
  "slo.create",
  async ({ db, prom, actor, slug, input }: ServiceMutation & { prom?: CoalescingClient | null }): Promise<SloRow> => {
    const parsed = parseInput(sloInputSchema, input, "The SLO");
    // A source saved without its kind gets the one Prometheus has (and the unit its metadata states);
    // with Prometheus down it is stored without, and read as Prometheus has it later (statusOf).
    const fields = { ...parsed, source: await withKind(prom ?? null, parsed.source, { unit: true }) };
    const service = await getServiceOrThrow({ db, slug });
    const created = await writeUnique(
      () =>
        db.$transaction(async (tx) => {
          const row = await insertSlo(tx, service.id, fields, authorOf(actor));
          await recordAudit(tx, actor, {
            action: "slo.create",
            service: slug,
            target: row.name,
            summary: `Created SLO ${sloSummary(row)}`,
          });
          return row;
        }),
      {
        message: `This service already has an SLO called “${fields.name}”.`,
        field: "name",
        taken: "This name is taken",
      },
    );
    forgetCachedSlos();
    rulesChanged(db);
    return created;
  },
);

export const updateSlo = mutation(
  "slo.update",
  async ({
    db,
    prom,
    actor,
    slug,
    id,
    input,
  }: ServiceMutation & { id: string; prom?: CoalescingClient | null }): Promise<SloRow> => {
    const { version, ...parsed } = parseInput(sloUpdateSchema, input, "The SLO");
    const fields = { ...parsed, source: await withKind(prom ?? null, parsed.source, { unit: true }) };
    const service = await getServiceOrThrow({ db, slug });
    const current = await findSloRow(db, service.id, id);
    if (!current) throw new AppError("NOT_FOUND", "No such SLO.");
    const saved =
      current.version === version &&
      (await db.$transaction(async (tx) => {
        if (!(await updateSloIfVersion(tx, service.id, id, version, fields, authorOf(actor)))) return false;
        const updated = (await findSloRow(tx, service.id, id))!;
        await recordAudit(tx, actor, {
          action: "slo.update",
          service: slug,
          target: updated.name,
          summary: `Saved SLO ${sloSummary(updated)} (version ${updated.version})`,
        });
        return true;
      }));
    if (!saved) {
      const latest = await findSloRow(db, service.id, id);
      throw new AppError(
        "CONFLICT",
        `This SLO was changed by ${latest?.updatedBy ?? "someone"} since you opened it (now version ${latest?.version}).`,
        undefined,
        { current: latest },
      );
    }
    forgetCachedSlos();
    rulesChanged(db);
    return (await findSloRow(db, service.id, id))!;
  },
);

export const deleteSlo = mutation(
  "slo.delete",
  async ({ db, actor, slug, id }: { db: Db; actor: Actor; slug: string; id: string }): Promise<void> => {
    const service = await getServiceOrThrow({ db, slug });
    const current = await findSloRow(db, service.id, id);
    const deleted =
      current &&
      (await db.$transaction(async (tx) => {
        if (!(await deleteSloRow(tx, service.id, id))) return false;
        await recordAudit(tx, actor, {
          action: "slo.delete",
          service: slug,
          target: current.name,
          summary: `Deleted SLO “${current.name}”`,
        });
        return true;
      }));
    if (!deleted) throw new AppError("NOT_FOUND", "No such SLO.");
    forgetCachedSlos();
    rulesChanged(db);
  },
);

/**
 * The real bucket bounds of a histogram (so an SLO editor can show which thresholds are exact) and
 * its live percentiles (so a source editor shows what it reads as it is typed): over the last 5
 * minutes, or the last hour when the 5 minutes saw nothing.
 */
export const getBucketBounds = guardedRead(
  "histogram.read",
  async ({
    prom,
    input,
    now = Date.now() / 1000,
  }: {
    prom: CoalescingClient | null;
    actor: Actor;
    input: unknown;
    now?: number;
  }): Promise<SourcePreview> => {
    const parsed = parseInput(bucketBoundsInputSchema, input, "The request");
    if (!prom) throw new AppError("UNAVAILABLE", "Prometheus is not configured: set PROMETHEUS_URL.");
    const source = await withKind(prom, parsed.source, { unit: true });
    const result = await fetchBucketIncreases(prom, source, { windows: ["5m", "1h"], time: prom.alignTime(now) });
    if (result.status === "error") throw new AppError("UNAVAILABLE", `Prometheus query failed: ${result.error}`);
    const hour = result.groups.get("1h") ?? [];
    const recent = result.groups.get("5m") ?? [];
    const window = histogramQuantile(0.5, recent).kind !== "none" ? "5m" : "1h";
    const buckets = window === "5m" ? recent : hour;
    const percentilesMs: SourcePreview["percentilesMs"] = { p50: null, p95: null, p99: null };
    const lowerBounds: PercentileKey[] = [];
    for (const key of PERCENTILES) {
      const estimate = histogramQuantile(QUANTILE_OF[key], buckets);
      if (estimate.kind === "none") continue;
      percentilesMs[key] = estimate.value * 1000;
      if (estimate.kind === "atLeast") lowerBounds.push(key);
    }
    const boundsMs = finiteBounds(hour).map((b) => b * 1000);
    const unit = unitOf(source);
    return {
      boundsMs,
      percentilesMs,
      lowerBounds,
      window,
      unit,
      kind: kindOf(source),
      unitCheck: checkUnit(
        boundsMs.map((ms) => msToUnit(ms, unit)),
        unit,
      ),
    };
  },
);

export type SourcePreview = {
  boundsMs: number[];
  percentilesMs: Record<PercentileKey, number | null>;
  /** Percentiles in the +Inf bucket: at least the value given. */
  lowerBounds: PercentileKey[];
  window: "5m" | "1h";
  unit: HistogramUnit;
  kind: HistogramKind;
  /** When the bucket bounds cannot be latency bounds in `unit`: why, and the unit they fit (checkUnit). */
  unitCheck: UnitCheck | null;
};
