import "server-only";
import { finiteBounds } from "@/lib/domain/histogram";
import {
  BURN_WINDOWS,
  alertStates,
  emptyBurnRates,
  evaluateSlo,
  type AlertState,
  type BurnWindow,
  type ThresholdMode,
} from "@/lib/domain/slo";
import type { Db } from "@/lib/db/client";
import { deleteSloRow, findSloRow, insertSlo, listSloRows, updateSloIfVersion, type SloRow } from "@/lib/db/slos";
import { AppError } from "@/lib/errors";
import { fetchBucketIncreases } from "@/lib/prometheus/buckets";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { parseInput } from "@/lib/schemas/parse";
import { bucketBoundsInputSchema, sloInputSchema, sloQuerySchema, sloUpdateSchema } from "@/lib/schemas/live";
import type { Actor, ServiceMutation } from "./actor";
import { getServiceOrThrow } from "./services";
import { writeUnique } from "./unique";

export type SloStatus = {
  id: string;
  name: string;
  indicator: string;
  source: SloRow["source"];
  version: number;
  /** The SLO's own window, which sets its alert factors. */
  windowDays: number;
  thresholdMs: number;
  thresholdMode: ThresholdMode;
  thresholdPreference: "snap" | "interpolate";
  /** The bound actually counted as good, in ms. */
  countedBoundMs: number | null;
  bucketBoundsMs: number[];
  objective: number;
  window: string;
  good: number | null;
  total: number | null;
  attainment: number | null;
  errorBudgetRemaining: number | null;
  burnRates: Record<BurnWindow, number | null>;
  alerts: AlertState[];
  error: string | null;
};

async function statusOf(prom: CoalescingClient | null, slo: SloRow, window: string, time: number): Promise<SloStatus> {
  const base: SloStatus = {
    id: slo.id,
    name: slo.name,
    indicator: slo.indicator,
    source: slo.source,
    version: slo.version,
    windowDays: slo.windowDays,
    thresholdMs: slo.thresholdMs,
    thresholdMode: "exact",
    thresholdPreference: slo.thresholdMode,
    countedBoundMs: null,
    bucketBoundsMs: [],
    objective: slo.objective,
    window,
    good: null,
    total: null,
    attainment: null,
    errorBudgetRemaining: null,
    burnRates: emptyBurnRates(),
    alerts: alertStates(emptyBurnRates(), slo.windowDays * 86400),
    error: prom ? null : "Prometheus is not configured: set PROMETHEUS_URL.",
  };
  if (!prom) return base;
  const windows = [window, ...BURN_WINDOWS.filter((w) => w !== window)];
  const result = await fetchBucketIncreases(prom, slo.source, { windows, time });
  if (result.status === "error") return { ...base, error: `Prometheus query failed: ${result.error}` };
  const evaluation = evaluateSlo(slo, window, result.groups);
  if (!evaluation) return { ...base, error: `No data for ${slo.source.metric} over ${window}.` };
  return { ...base, ...evaluation };
}

export async function getSloStatuses({
  db,
  prom,
  slug,
  query = {},
  now = Date.now() / 1000,
}: {
  db: Db;
  prom: CoalescingClient | null;
  slug: string;
  query?: unknown;
  now?: number;
}): Promise<SloStatus[]> {
  const { window, at } = parseInput(sloQuerySchema, query, "The query");
  const service = await getServiceOrThrow({ db, slug });
  const slos = await listSloRows(db, service.id);
  const time = prom ? prom.alignTime(at ?? now) : Math.floor(at ?? now);
  return Promise.all(slos.map((slo) => statusOf(prom, slo, window ?? `${slo.windowDays}d`, time)));
}

export async function createSlo({ db, actor, slug, input }: ServiceMutation): Promise<SloRow> {
  const fields = parseInput(sloInputSchema, input, "The SLO");
  const service = await getServiceOrThrow({ db, slug });
  return writeUnique(() => insertSlo(db, service.id, fields, actor.name), {
    message: `This service already has an SLO called “${fields.name}”.`,
    field: "name",
    taken: "This name is taken",
  });
}

export async function updateSlo({ db, actor, slug, id, input }: ServiceMutation & { id: string }): Promise<SloRow> {
  const { version, ...fields } = parseInput(sloUpdateSchema, input, "The SLO");
  const service = await getServiceOrThrow({ db, slug });
  const current = await findSloRow(db, service.id, id);
  if (!current) throw new AppError("NOT_FOUND", "No such SLO.");
  const saved =
    current.version === version && (await updateSloIfVersion(db, service.id, id, version, fields, actor.name));
  if (!saved) {
    const latest = await findSloRow(db, service.id, id);
    throw new AppError(
      "CONFLICT",
      `This SLO was changed by ${latest?.updatedBy ?? "someone"} since you opened it (now version ${latest?.version}).`,
      undefined,
      { current: latest },
    );
  }
  return (await findSloRow(db, service.id, id))!;
}

export async function deleteSlo({ db, slug, id }: { db: Db; actor: Actor; slug: string; id: string }): Promise<void> {
  const service = await getServiceOrThrow({ db, slug });
  if (!(await deleteSloRow(db, service.id, id))) throw new AppError("NOT_FOUND", "No such SLO.");
}

/** The real `le` bounds of a histogram, so an SLO editor can show which thresholds are exact. */
export async function getBucketBounds({
  prom,
  input,
  now = Date.now() / 1000,
}: {
  prom: CoalescingClient | null;
  input: unknown;
  now?: number;
}): Promise<{ boundsMs: number[] }> {
  const { source } = parseInput(bucketBoundsInputSchema, input, "The request");
  if (!prom) throw new AppError("UNAVAILABLE", "Prometheus is not configured: set PROMETHEUS_URL.");
  const result = await fetchBucketIncreases(prom, source, { windows: ["1h"], time: prom.alignTime(now) });
  if (result.status === "error") throw new AppError("UNAVAILABLE", `Prometheus query failed: ${result.error}`);
  return { boundsMs: finiteBounds(result.groups.get("1h") ?? []).map((b) => b * 1000) };
}
