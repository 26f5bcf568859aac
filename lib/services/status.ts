import "server-only";
import type { Db } from "@/lib/db/client";
import type { Point } from "@/lib/domain/timeline";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { getAlerts } from "./alerts";
import { jsonCache } from "./json-cache";
import { pooled } from "./pool";
import { listAllSloRows } from "@/lib/db/slos";
import { listServiceRows } from "@/lib/db/services";
import { buildTimeline, rateWindowFor, timelineSpan, type TimelineModel } from "@/lib/domain/timeline";
import { buildWaterfall, type WaterfallModel } from "@/lib/domain/waterfall";
import { windowSeconds } from "@/lib/domain/windows";
import { fetchBucketRateRange, fetchBucketRates } from "@/lib/prometheus/buckets";
import { budgetViewOf, primeCachedBudget, type BudgetView } from "./budgets";
import { summarize, type ServiceSummary } from "./services";
import { primeCachedSlos } from "./slo-definitions";
import { statusesOf, type SloStatus } from "./slos";
import { sourcesOf } from "./waterfall";

/** The window every board figure is read over: the waterfall's and the timeline's default. */
const BOARD_WINDOW = "5m";

// The board on-call opens first: every service's live end-to-end pXX against its target, what is
// over budget now and since when, alerts firing and the least error budget left, worst first. One
// request for the whole board, and a fixed number of questions for it whatever the number of
// services: two database queries, two Prometheus queries for every waterfall and timeline (see
// liveOfAll), and one status per SLO.

export type ServiceStatus = {
  slug: string;
  name: string;
  quantile: number;
  targetMs: number;
  /** The budget as written: "TTFT p95 < 700 ms", what its stages stack to, and the margin left. */
  target: string;
  budgetStackedMs: number;
  budgetMarginMs: number;
  /** The end-to-end histogram's pXX, else the stacked waterfall (measuredIsStacked). */
  measuredMs: number | null;
  measuredIsStacked: boolean;
  overBudget: { stage: string; component: string; actualMs: number; budgetMs: number; since: number | null }[];
  firingAlerts: number;
  lowestErrorBudgetRemaining: number | null;
  /** How many SLOs the service has (the least budget left is null when it has none, or none has data). */
  sloCount: number;
  /** The measured line over the last hour, for a sparkline. */
  trend: Point[];
  stale: boolean;
  error: string | null;
};

export type StatusBoard = { at: number; services: ServiceStatus[] };

/** Worst first: firing alerts, then over target, then most components over budget, then least budget left. */
export function worstFirst(a: ServiceStatus, b: ServiceStatus): number {
  const overTarget = (s: ServiceStatus) => (s.measuredMs !== null && s.measuredMs > s.targetMs ? 1 : 0);
  return (
    Math.sign(b.firingAlerts) - Math.sign(a.firingAlerts) ||
    overTarget(b) - overTarget(a) ||
    b.overBudget.length - a.overBudget.length ||
    (a.lowestErrorBudgetRemaining ?? 1) - (b.lowestErrorBudgetRemaining ?? 1) ||
    (b.measuredMs ?? 0) / b.targetMs - (a.measuredMs ?? 0) / a.targetMs ||
    a.slug.localeCompare(b.slug)
  );
}

/** The board's view of one service: its waterfall now and its last hour, read with every other service's. */
type Live = { now: WaterfallModel; hour: TimelineModel; error: string | null };

// Every service's sources in one question: keys are prefixed with the service's index, and the
// answer is split back per service in one pass.
const tagged = (budgets: BudgetView[]) =>
  budgets.flatMap((budget, i) => sourcesOf(budget).map(({ key, source }) => ({ key: `${i}|${key}`, source })));

function split<T>(groups: Map<string, T>, count: number): Map<string, T>[] {
  const parts = Array.from({ length: count }, () => new Map<string, T>());
  for (const [key, value] of groups) {
    const bar = key.indexOf("|");
    parts[Number(key.slice(0, bar))]?.set(key.slice(bar + 1), value);
  }
  return parts;
}

/**
 * Every service's waterfall now and over the last hour, in two Prometheus queries (one instant,
 * one range) whatever the number of services, plus one per native histogram. Each service's
 * figures are what its own waterfall and timeline say: the same buckets, the same builders.
 */
async function liveOfAll(prom: CoalescingClient | null, budgets: BudgetView[], now: number): Promise<Live[]> {
  const at = prom ? prom.alignTime(now) : Math.floor(now);
  const span = timelineSpan("1h", now);
  const times: number[] = [];
  for (let t = span.start; t <= span.end; t += span.stepSeconds) times.push(t);
  const sources = tagged(budgets);
  const [instant, range] = prom
    ? await Promise.all([
        fetchBucketRates(prom, sources, { window: BOARD_WINDOW, time: at }),
        fetchBucketRateRange(prom, sources, {
          window: rateWindowFor(windowSeconds(BOARD_WINDOW), span.stepSeconds),
          start: span.start,
          end: span.end,
          step: span.stepSeconds,
        }),
      ])
    : [null, null];
  const failed = instant?.status === "error" ? instant : range?.status === "error" ? range : null;
  const error = !prom
    ? "Prometheus is not configured: set PROMETHEUS_URL to see live percentiles."
    : failed
      ? `Prometheus query failed: ${failed.error} (${failed.errorType})`
      : null;
  const nowGroups = instant?.status === "success" ? split(instant.groups, budgets.length) : null;
  const rangeGroups = range?.status === "success" ? range.groups.map((groups) => split(groups, budgets.length)) : null;
  return budgets.map((budget, i) => ({
    now: buildWaterfall(budget, budget.quantile, nowGroups?.[i] ?? new Map()),
    hour: buildTimeline(
      budget,
      budget.quantile,
      times,
      times.map((_, t) => rangeGroups?.[t]?.[i] ?? new Map()),
    ),
    error,
  }));
}

function serviceStatus(
  service: ServiceSummary,
  live: Live,
  slos: SloStatus[],
  firing: Map<string, number>,
): ServiceStatus {
  const { now: waterfall, hour: timeline } = live;
  const since = new Map(timeline.series.map((s) => [`${s.stage}\u0000${s.component}`, s.overBudgetSince]));
  const budgets = slos.map((s) => s.errorBudgetRemaining).filter((b): b is number => b !== null);
  const measuredIsStacked = waterfall.measuredEndToEndMs === null;
  const anyStage = waterfall.stages.some((stage) => stage.durationMs !== null);
  const measured = waterfall.measuredEndToEndMs ?? (anyStage ? waterfall.stackedMs : null);
  return {
    slug: service.slug,
    name: service.name,
    quantile: service.quantile,
    targetMs: service.targetMs,
    target: service.target,
    budgetStackedMs: service.stackedMs,
    budgetMarginMs: service.marginMs,
    measuredMs: measured,
    measuredIsStacked: measured !== null && measuredIsStacked,
    overBudget: waterfall.stages.flatMap((stage) =>
      stage.components
        .filter((c) => c.status === "over")
        .map((c) => ({
          stage: stage.name,
          component: c.name,
          actualMs: c.actualMs!,
          budgetMs: c.budgetMs!,
          since: since.get(`${stage.name}\u0000${c.name}`) ?? null,
        })),
    ),
    firingAlerts: firing.get(service.slug) ?? 0,
    lowestErrorBudgetRemaining: budgets.length ? Math.min(...budgets) : null,
    sloCount: slos.length,
    trend: (timeline.endToEnd ?? timeline.stacked).points,
    stale: false,
    error: live.error,
  };
}

export async function getStatusBoard({
  db,
  prom,
  now = Date.now() / 1000,
}: {
  db: Db;
  prom: CoalescingClient | null;
  now?: number;
}): Promise<StatusBoard> {
  // Two database queries for the whole board: every service with its budget, every SLO. They
  // also fill the live views' caches, so the SLO statuses below read no more.
  const [rows, sloRows, alerts] = await Promise.all([
    listServiceRows(db),
    listAllSloRows(db),
    prom ? getAlerts({ db, prom }) : null,
  ]);
  const withBudgets = rows.filter((row) => row.budget);
  const budgets = withBudgets.map((row) => budgetViewOf(row.slug, row.budget!));
  budgets.forEach((budget) => primeCachedBudget(budget));
  withBudgets.forEach((row) => primeCachedSlos(row.slug, row.id, sloRows.get(row.id) ?? []));
  const firing = new Map<string, number>();
  for (const alert of alerts?.alerts ?? [])
    if (alert.state === "firing" && alert.labels.service)
      firing.set(alert.labels.service, (firing.get(alert.labels.service) ?? 0) + 1);
  const live = await liveOfAll(prom, budgets, now);
  // SLO statuses are per SLO (each its own windows and thresholds); services without SLOs ask nothing.
  const slos = await pooled(withBudgets, 8, (row) => statusesOf(prom, row.slug, sloRows.get(row.id) ?? [], now));
  const statuses = withBudgets.map((row, i) => serviceStatus(summarize(row), live[i]!, slos[i]!, firing));
  return { at: Math.floor(now), services: statuses.sort(worstFirst) };
}

const responses = jsonCache("status", { ttlMs: 5000, maxEntries: 4 });

export async function getStatusBoardJson(args: { db: Db; prom: CoalescingClient | null }): Promise<string> {
  const now = Date.now() / 1000;
  const at = args.prom ? args.prom.alignTime(now) : Math.floor(now);
  return responses.get(
    `${args.prom?.baseUrl}|${at}`,
    () => getStatusBoard({ ...args, now }),
    (board) => board.services.every((s) => !s.error),
  );
}
