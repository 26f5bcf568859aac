import "server-only";
import type { Db } from "@/lib/db/client";
import type { Point } from "@/lib/domain/timeline";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { getAlerts } from "./alerts";
import { jsonCache } from "./json-cache";
import { pooled } from "./pool";
import { listServices, type ServiceSummary } from "./services";
import { getSloStatuses } from "./slos";
import { getTimeline } from "./timeline";
import { getWaterfall } from "./waterfall";

// The board on-call opens first: every service's live end-to-end pXX against its target, what is
// over budget now and since when, alerts firing and the least error budget left, worst first. One
// request for the whole board; each service's parts come from the same coalesced, cached views
// its own pages read.

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

async function serviceStatus(
  db: Db,
  prom: CoalescingClient | null,
  service: ServiceSummary,
  firing: Map<string, number>,
  now: number,
): Promise<ServiceStatus> {
  const query = { quantile: String(service.quantile) };
  const [waterfall, timeline, slos] = await Promise.all([
    getWaterfall({ db, prom, slug: service.slug, query, now }),
    getTimeline({ db, prom, slug: service.slug, query: { ...query, range: "1h" }, now }),
    getSloStatuses({ db, prom, slug: service.slug, now }),
  ]);
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
    trend: (timeline.endToEnd ?? timeline.stacked).points,
    stale: waterfall.stale,
    error: waterfall.error,
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
  const [services, alerts] = await Promise.all([listServices({ db }), prom ? getAlerts({ db, prom }) : null]);
  const firing = new Map<string, number>();
  for (const alert of alerts?.alerts ?? [])
    if (alert.state === "firing" && alert.labels.service)
      firing.set(alert.labels.service, (firing.get(alert.labels.service) ?? 0) + 1);
  // A few services at a time: each is a handful of coalesced queries.
  const statuses = await pooled(services, 8, (s) => serviceStatus(db, prom, s, firing, now));
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
