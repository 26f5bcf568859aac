import { AlertBadges } from "@/components/alerts/alert-badges";
import { Card, cx } from "@/components/ui/primitives";
import { formatMeasuredMs, formatSignedMs } from "@/lib/domain/format";
import type { ComponentStatus } from "@/lib/domain/waterfall";
import type { ActiveAlert } from "@/lib/services/alerts";
import type { WaterfallView } from "@/lib/services/waterfall";

const STATUS_CLASS: Record<ComponentStatus, string> = {
  ok: "text-emerald-700 dark:text-emerald-400",
  warn: "text-amber-700 dark:text-amber-400",
  over: "font-semibold text-red-600 dark:text-red-400",
  unknown: "text-violet-700 dark:text-violet-300",
  nodata: "text-slate-500",
};

type Component = WaterfallView["stages"][number]["components"][number];

export function statusText(c: Component): string {
  if (!c.hasSource) return "no metric source";
  switch (c.status) {
    case "ok":
      return "ok";
    case "warn":
      return "near budget";
    case "over":
      return c.isLowerBound ? "over budget (at least)" : "over budget";
    case "unknown":
      return `unknown — at least ${formatMeasuredMs(c.actualMs, false, 0)}`;
    case "nodata":
      return "no data";
  }
}

/** The waterfall as a table: readable by screen readers, copyable into an incident doc. */
export function ComponentTable({ view, alerts = [] }: { view: WaterfallView; alerts?: ActiveAlert[] }) {
  return (
    <Card className="overflow-x-auto">
      <table className="w-full text-sm" aria-label="Components">
        <thead>
          <tr className="text-left text-xs text-slate-500">
            <th className="font-normal">Stage</th>
            <th className="font-normal">Component</th>
            <th className="text-right font-normal">Measured</th>
            <th className="text-right font-normal">Budget</th>
            <th className="pl-4 font-normal">Status</th>
            {view.compare && <th className="text-right font-normal">Δ vs {view.compare.label}</th>}
          </tr>
        </thead>
        <tbody>
          {view.stages.flatMap((stage) =>
            stage.components.map((c, i) => (
              <tr
                key={`${stage.name}-${c.name}`}
                data-testid={`row-${c.name}`}
                className="border-t border-slate-100 dark:border-slate-800"
              >
                <td className="py-1">{i === 0 ? stage.name : ""}</td>
                <td>
                  {c.name}
                  <AlertBadges
                    label={c.name}
                    alerts={alerts.filter(
                      (a) =>
                        a.name === "ComponentOverBudget" &&
                        a.labels.stage === stage.name &&
                        a.labels.component === c.name,
                    )}
                  />
                  {c.onCriticalPath && stage.components.length > 1 && (
                    <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-800 dark:bg-amber-900 dark:text-amber-200">
                      critical path
                    </span>
                  )}
                </td>
                <td className="text-right tabular-nums">{formatMeasuredMs(c.actualMs, c.isLowerBound)}</td>
                <td className="text-right tabular-nums">{formatMeasuredMs(c.budgetMs, false, 0)}</td>
                <td className={cx("pl-4", STATUS_CLASS[c.status])} data-testid={`status-${c.name}`}>
                  {statusText(c)}
                </td>
                {view.compare && (
                  <td
                    className={cx(
                      "text-right tabular-nums",
                      (c.deltaMs ?? 0) > 0
                        ? "text-red-600 dark:text-red-400"
                        : "text-emerald-700 dark:text-emerald-400",
                    )}
                  >
                    {formatSignedMs(c.deltaMs)}
                  </td>
                )}
              </tr>
            )),
          )}
        </tbody>
      </table>
    </Card>
  );
}
