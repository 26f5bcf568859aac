import "server-only";
import { findSloRow } from "@/lib/db/slos";
import { ALERT_RULES, burnRateFactor, WINDOW_SECONDS, type BurnWindow } from "@/lib/domain/slo";
import { AppError } from "@/lib/errors";
import { isUuid, parseInput } from "@/lib/schemas/parse";
import { sloHistoryQuerySchema } from "@/lib/schemas/live";
import { annotationsBetween, type AnnotationView } from "./annotations";
import { pooled } from "./pool";
import type { LiveViewArgs } from "./runtime";
import { getServiceOrThrow } from "./services";
import { statusOf, type SloStatus } from "./slos";

// The SLO over time: at each point, the SLO's status as of that moment over its own window
// (the burn-down, attainment and burn rates), computed by the same code as the status itself,
// so the last point is the status shown above the chart. Long windows read the recorded series
// exactly as the status does. A past point never changes, so each is computed once and kept.

export const HISTORY_POINTS = 48;

export type SloHistoryPoint = {
  at: number;
  attainment: number | null;
  errorBudgetRemaining: number | null;
  burnRates: Record<BurnWindow, number | null>;
};

export type SloHistoryView = {
  id: string;
  name: string;
  range: string;
  start: number;
  end: number;
  stepSeconds: number;
  objective: number;
  /** The burn rates the alerts fire above, per long window: drawn on the burn-rate chart. */
  thresholds: { severity: "page" | "ticket"; longWindow: BurnWindow; shortWindow: BurnWindow; factor: number }[];
  points: SloHistoryPoint[];
  annotations: AnnotationView[];
  dataPath: SloStatus["dataPath"] | null;
  error: string | null;
};

const SETTLED_SECONDS = 600;
const MAX_KEPT = 20_000;
const globalForPoints = globalThis as unknown as { latencyBudgetsSloPoints?: Map<string, SloHistoryPoint> };
const kept = (globalForPoints.latencyBudgetsSloPoints ??= new Map());

export async function getSloHistory(args: LiveViewArgs & { id: string }): Promise<SloHistoryView> {
  const { db, prom, slug, id } = args;
  const query = parseInput(sloHistoryQuerySchema, args.query, "The query");
  if (!isUuid(id)) throw new AppError("NOT_FOUND", "No such SLO.");
  const service = await getServiceOrThrow({ db, slug });
  const slo = await findSloRow(db, service.id, id);
  if (!slo) throw new AppError("NOT_FOUND", "No such SLO.");
  const now = args.now ?? Date.now() / 1000;
  const end = prom ? prom.alignTime(query.end ?? now) : Math.floor(query.end ?? now);
  const range = query.range ?? `${slo.windowDays}d`;
  const span = WINDOW_SECONDS[range] ?? slo.windowDays * 86400;
  const stepSeconds = Math.max(15, Math.floor(span / (HISTORY_POINTS - 1) / 15) * 15);
  const times = Array.from({ length: HISTORY_POINTS }, (_, i) => end - (HISTORY_POINTS - 1 - i) * stepSeconds);
  let last: SloStatus | null = null;
  const points = await pooled(times, 6, async (at): Promise<SloHistoryPoint> => {
    const key = `${prom?.baseUrl}|${slo.id}|v${slo.version}|${at}`;
    const hit = kept.get(key);
    if (hit) return hit;
    const status = await statusOf(prom, slug, slo, undefined, at);
    if (at === end) last = status;
    const point = {
      at,
      attainment: status.attainment,
      errorBudgetRemaining: status.errorBudgetRemaining,
      burnRates: status.burnRates,
    };
    if (!status.error && at < now - SETTLED_SECONDS) {
      if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
      kept.set(key, point);
    }
    return point;
  });
  const windowSeconds = slo.windowDays * 86400;
  const final = last as SloStatus | null;
  return {
    id: slo.id,
    name: slo.name,
    range,
    start: times[0]!,
    end,
    stepSeconds,
    objective: slo.objective,
    thresholds: ALERT_RULES.map((rule) => ({
      severity: rule.severity,
      longWindow: rule.longWindow,
      shortWindow: rule.shortWindow,
      factor: burnRateFactor(rule, windowSeconds),
    })),
    points,
    annotations: await annotationsBetween(db, [slug], times[0]!, end),
    dataPath: final?.dataPath ?? null,
    error: final?.error ?? null,
  };
}
