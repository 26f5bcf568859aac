"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { AttainmentGauge } from "@/components/charts/attainment-gauge";
import { Button, Card, EmptyState, cx } from "@/components/ui/primitives";
import { formatCount, formatPercent } from "@/lib/domain/format";
import { BURN_WINDOWS } from "@/lib/domain/slo";
import { apiFetch } from "@/lib/queries/api";
import { queries, urls } from "@/lib/queries/resources";
import type { SloStatus } from "@/lib/services/slos";
import { AlertBadges, useServiceAlerts } from "@/components/alerts/alert-badges";
import type { ActiveAlert } from "@/lib/services/alerts";
import { SloForm } from "./lazy-slo-form";
import { SloHistory } from "./slo-history";
import { Allowed } from "@/components/auth/viewer";

const ms = (v: number) => `${Math.round(v * 100) / 100} ms`;

export function thresholdNote(slo: SloStatus): string {
  if (slo.countedBoundMs === null) return "";
  const below = [...slo.bucketBoundsMs].reverse().find((b) => b < slo.thresholdMs);
  const above = slo.bucketBoundsMs.find((b) => b > slo.thresholdMs);
  if (slo.histogramKind === "native")
    return `${ms(slo.thresholdMs)} is counted by histogram_fraction on the native histogram: no bucket to snap to${
      below !== undefined && above !== undefined
        ? `, interpolated only inside the native bucket ${ms(below)}–${ms(above)}`
        : ""
    }.`;
  if (slo.thresholdMode === "exact") return `${ms(slo.thresholdMs)} is a bucket bound: counted exactly.`;
  if (above === undefined)
    return `${ms(slo.thresholdMs)} is above the highest bucket bound: counted at ${ms(slo.countedBoundMs)}, which can only understate attainment.`;
  const between = `between the bounds ${below !== undefined ? ms(below) : "0"} and ${ms(above)}`;
  return slo.thresholdMode === "snapped"
    ? `${ms(slo.thresholdMs)} is not a bucket bound (${between}): counted at ${ms(slo.countedBoundMs)}, which can only understate attainment.`
    : `${ms(slo.thresholdMs)} is not a bucket bound (${between}): an estimate, interpolated inside the bucket.`;
}

/** "99 % of requests ≤ 700 ms" or "99 % of 5-minute slices whose p95 ≤ 700 ms", and the window. */
export function sloSentence(slo: SloStatus): string {
  const what =
    slo.budgetingMethod === "timeslices"
      ? `${slo.timesliceMinutes}-minute slices whose p${Math.round((slo.timesliceTarget ?? 0) * 1000) / 10} ≤ ${ms(slo.thresholdMs)}`
      : `requests ≤ ${ms(slo.thresholdMs)}`;
  const window =
    slo.windowKind === "calendar"
      ? slo.window === "period"
        ? `this calendar ${slo.calendarUnit} (${slo.timeZone}, since ${slo.periodStart ? new Date(slo.periodStart).toLocaleString("en-GB", { timeZone: slo.timeZone, dateStyle: "medium", timeStyle: "short" }) : "its start"})`
        : `${slo.window} (its own window is the calendar ${slo.calendarUnit})`
      : slo.window === `${slo.windowDays}d`
        ? slo.window
        : `${slo.window} (its own window is ${slo.windowDays} days)`;
  return `${formatPercent(slo.objective)} of ${what} over ${window}`;
}

export function SloList({ slug, initial }: { slug: string; initial: SloStatus[] }) {
  const slos = useQuery({ ...queries.slos(slug), initialData: initial, refetchInterval: 30_000 });
  const alerts = useServiceAlerts(slug);
  if (slos.data.length === 0) {
    return (
      <EmptyState title="No SLOs yet">
        Add one below: which histogram, what threshold, what share of requests must meet it.
      </EmptyState>
    );
  }
  return (
    <ul className="space-y-3" aria-label="SLOs">
      {slos.data.map((slo) => (
        <li key={slo.id}>
          <SloCard
            slug={slug}
            slo={slo}
            alerts={(alerts.data?.alerts ?? []).filter(
              (a) => a.name === "SLOErrorBudgetBurn" && a.labels.slo === slo.name,
            )}
          />
        </li>
      ))}
    </ul>
  );
}

function SloCard({ slug, slo, alerts }: { slug: string; slo: SloStatus; alerts: ActiveAlert[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<"view" | "edit" | "confirm-delete">("view");
  const remove = useMutation({
    mutationFn: () => apiFetch(urls.slo(slug, slo.id), { method: "DELETE" }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queries.slos(slug).queryKey });
      router.refresh();
    },
  });
  const firing = slo.alerts.filter((a) => a.firing);
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="space-y-1">
          <h2 className="text-lg font-semibold">
            {slo.name}
            <AlertBadges label={slo.name} alerts={alerts} />
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">{sloSentence(slo)}</p>
          <p className="max-w-md text-xs text-slate-500" data-testid="threshold-note">
            {thresholdNote(slo)}
          </p>
          {slo.error && <p className="text-sm text-red-600 dark:text-red-400">{slo.error}</p>}
          <dl className="grid grid-cols-2 gap-x-4 text-sm">
            <dt className="text-slate-500">Error budget left</dt>
            <dd
              className={cx("tabular-nums", (slo.errorBudgetRemaining ?? 1) < 0 && "font-semibold text-red-600")}
              data-testid="budget-remaining"
            >
              {formatPercent(slo.errorBudgetRemaining, 1)}
            </dd>
            <dt className="text-slate-500">{slo.unit === "slices" ? "Slices counted" : "Requests counted"}</dt>
            <dd className="tabular-nums">{formatCount(slo.total === null ? null : Math.round(slo.total))}</dd>
          </dl>
          {slo.dataPath.note && (
            <p className="max-w-md text-xs text-slate-500" data-testid="data-path">
              {slo.dataPath.note}
            </p>
          )}
        </div>
        <AttainmentGauge attainment={slo.attainment} objective={slo.objective} />
      </div>
      <table className="mt-3 w-full text-sm" aria-label={`Burn rates of ${slo.name}`}>
        <thead>
          <tr className="text-xs text-slate-500">
            <th className="text-left font-normal">Burn rate</th>
            {BURN_WINDOWS.map((w) => (
              <th key={w} className="text-right font-normal">
                {w}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <td className="text-slate-500">× budget</td>
            {BURN_WINDOWS.map((w) => {
              const rate = slo.burnRates[w];
              return (
                <td
                  key={w}
                  className={cx(
                    "text-right tabular-nums",
                    rate !== null && rate > 1 && "text-red-600 dark:text-red-400",
                  )}
                >
                  {rate === null ? "—" : rate.toFixed(2)}
                </td>
              );
            })}
          </tr>
        </tbody>
      </table>
      <SloHistory slug={slug} id={slo.id} name={slo.name} />
      <ul className="mt-2 flex flex-wrap gap-2 text-xs" aria-label={`Alerts of ${slo.name}`}>
        {slo.alerts.map((a) => (
          <li
            key={`${a.longWindow}-${a.shortWindow}`}
            className={cx(
              "rounded px-2 py-0.5",
              a.firing ? "bg-red-600 text-white" : "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
            )}
          >
            {a.severity} {a.longWindow} & {a.shortWindow} &gt; {a.factor.toFixed(a.factor < 10 ? 2 : 1)}×{" "}
            {a.firing ? "over" : a.unreachable ? "can never fire at this objective" : "ok"}
          </li>
        ))}
      </ul>
      {firing.length > 0 && (
        <p className="mt-1 text-sm font-medium text-red-600">
          {firing.some((a) => a.severity === "page") ? "Page on-call: " : "Open a ticket: "}the error budget is burning
          fast.
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3 dark:border-slate-800">
        {mode === "view" && (
          <>
            <Allowed action="slo.update" quiet>
              <Button onClick={() => setMode("edit")} aria-label={`Edit ${slo.name}`}>
                Edit
              </Button>
            </Allowed>
            <Allowed action="slo.delete" quiet>
              <Button variant="danger" onClick={() => setMode("confirm-delete")} aria-label={`Delete ${slo.name}`}>
                Delete
              </Button>
            </Allowed>
          </>
        )}
        {mode === "confirm-delete" && (
          <>
            <span className="text-sm">Delete “{slo.name}”? Its history of attainment stays in Prometheus.</span>
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {remove.isPending ? "Deleting…" : "Delete SLO"}
            </Button>
            <Button onClick={() => setMode("view")}>Cancel</Button>
          </>
        )}
        <span aria-live="polite" className="text-sm text-red-600">
          {remove.error?.message}
        </span>
      </div>
      {mode === "edit" && (
        <div className="mt-3">
          <SloForm slug={slug} defaultSource={null} editing={slo} onDone={() => setMode("view")} />
        </div>
      )}
    </Card>
  );
}
