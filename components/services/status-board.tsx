"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Sparkline } from "@/components/charts/lazy";
import { FirstRun } from "@/components/services/first-run";
import { Card, cx } from "@/components/ui/primitives";
import { formatMs, sinceText } from "@/lib/domain/format";
import { queries } from "@/lib/queries/resources";
import type { ServiceStatus, StatusBoard as Board } from "@/lib/services/status";
import { errorBudgetText } from "./status-text";

// The board on-call opens first: every service, worst first, refreshed like the waterfall.

const REFRESH_MS = 15_000;

export function StatusBoard({ initial }: { initial: Board }) {
  const board = useQuery({ ...queries.status(), initialData: initial, refetchInterval: REFRESH_MS, staleTime: 5_000 });
  const { services, at } = board.data;
  if (services.length === 0) return <FirstRun />;
  return (
    <>
      <p className="text-xs text-slate-500" aria-live="polite">
        Worst first · live, refreshing every 15 s · as of {new Date(at * 1000).toLocaleTimeString()}
        {board.error && <span className="text-red-600"> · could not refresh: {board.error.message}</span>}
      </p>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Services">
        {services.map((s) => (
          <li key={s.slug}>
            <ServiceCard status={s} at={at} />
          </li>
        ))}
      </ul>
    </>
  );
}

function ServiceCard({ status: s, at }: { status: ServiceStatus; at: number }) {
  const overTarget = s.measuredMs !== null && s.measuredMs > s.targetMs;
  const bad = overTarget || s.overBudget.length > 0 || s.firingAlerts > 0;
  return (
    <Link
      href={`/services/${s.slug}/waterfall`}
      className="block h-full rounded-lg focus-visible:outline-2"
      aria-label={`${s.name}: ${bad ? "needs attention" : "within budget"}`}
    >
      <Card
        className={cx("h-full space-y-2 transition hover:border-sky-400", bad && "border-red-300 dark:border-red-900")}
      >
        <div className="flex items-baseline justify-between gap-2">
          <h2 className="font-semibold">{s.name}</h2>
          <code className="text-xs text-slate-500">{s.slug}</code>
        </div>
        <p className="flex items-baseline gap-2">
          <span
            className={cx("text-2xl font-semibold tabular-nums", overTarget && "text-red-600 dark:text-red-400")}
            data-testid="status-measured"
          >
            {s.measuredMs === null ? "—" : formatMs(Math.round(s.measuredMs))}
          </span>
          <span className="text-sm text-slate-500">
            p{s.quantile * 100} {s.measuredIsStacked ? "(stacked stages)" : "end to end"} · target{" "}
            {formatMs(s.targetMs)}
          </span>
        </p>
        <Sparkline points={s.trend} label={`${s.name} over the last hour`} />
        {s.overBudget.length > 0 ? (
          <ul className="space-y-0.5 text-sm" aria-label={`Over budget in ${s.name}`}>
            {s.overBudget.map((c) => (
              <li key={`${c.stage}/${c.component}`} className="text-red-700 dark:text-red-400">
                <span className="font-medium">{c.component}</span> {formatMs(Math.round(c.actualMs))} /{" "}
                {formatMs(c.budgetMs)}
                {c.since !== null && <span className="text-xs"> · {sinceText(c.since, at)}</span>}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-emerald-700 dark:text-emerald-400">
            {s.measuredMs === null ? "No live data" : "Every component within budget"}
          </p>
        )}
        <dl className="grid grid-cols-2 gap-1 text-sm">
          <dt className="text-slate-500">Alerts firing</dt>
          <dd className={cx("text-right tabular-nums", s.firingAlerts > 0 && "font-semibold text-red-600")}>
            {s.firingAlerts}
          </dd>
          <dt className="text-slate-500">Least error budget left</dt>
          <dd
            className={cx(
              "text-right tabular-nums",
              (s.lowestErrorBudgetRemaining ?? 1) < 0.25 && "font-semibold text-red-600 dark:text-red-400",
            )}
          >
            {errorBudgetText(s)}
          </dd>
        </dl>
        <p className="text-xs text-slate-500">
          Budget {s.target} · stages stack to {formatMs(s.budgetStackedMs)},{" "}
          {s.budgetMarginMs >= 0 ? `${formatMs(s.budgetMarginMs)} spare` : `over by ${formatMs(-s.budgetMarginMs)}`}
        </p>
        {(s.error || s.stale) && <p className="text-xs text-amber-700 dark:text-amber-400">{s.error}</p>}
      </Card>
    </Link>
  );
}
