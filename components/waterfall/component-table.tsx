import { Card, cx } from "@/components/ui/primitives";
import type { WaterfallView } from "@/lib/services/waterfall";

const STATUS_TEXT = { ok: "ok", warn: "near budget", over: "over budget", nodata: "no data" } as const;
const STATUS_CLASS = {
  ok: "text-emerald-700 dark:text-emerald-400",
  warn: "text-amber-700 dark:text-amber-400",
  over: "font-semibold text-red-600 dark:text-red-400",
  nodata: "text-slate-500",
} as const;

function ms(value: number | null | undefined, isLowerBound = false): string {
  return value === null || value === undefined ? "—" : `${isLowerBound ? "≥ " : ""}${value.toFixed(1)} ms`;
}

/** The waterfall as a table: readable by screen readers, copyable into an incident doc. */
export function ComponentTable({ view }: { view: WaterfallView }) {
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
                  {c.onCriticalPath && stage.components.length > 1 && (
                    <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-800 dark:bg-amber-900 dark:text-amber-200">
                      critical path
                    </span>
                  )}
                </td>
                <td className="text-right tabular-nums">{ms(c.actualMs, c.isLowerBound)}</td>
                <td className="text-right tabular-nums">{ms(c.budgetMs)}</td>
                <td className={cx("pl-4", STATUS_CLASS[c.status])} data-testid={`status-${c.name}`}>
                  {c.hasSource ? STATUS_TEXT[c.status] : "no metric source"}
                </td>
                {view.compare && (
                  <td
                    className={cx(
                      "text-right tabular-nums",
                      (c.deltaMs ?? 0) > 0 ? "text-red-600" : "text-emerald-700",
                    )}
                  >
                    {c.deltaMs === null || c.deltaMs === undefined
                      ? "—"
                      : `${c.deltaMs > 0 ? "+" : ""}${c.deltaMs.toFixed(1)} ms`}
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
