import { PERCENTILES, type BudgetFit, type BudgetDocument, type StageTime } from "@/lib/domain/budget";
import { formatMs } from "@/lib/domain/format";
import { cx } from "@/components/ui/primitives";

const STAGE_COLOURS = [
  "bg-sky-500",
  "bg-emerald-500",
  "bg-violet-500",
  "bg-amber-500",
  "bg-rose-500",
  "bg-teal-500",
  "bg-indigo-500",
  "bg-lime-500",
];

function formatStageMs(ms: number | null): string {
  return ms === null ? "no budget" : formatMs(ms);
}

/** Left offset and width, in percent of `scale`, of each stage laid end to end. */
function stackedBars(times: StageTime[], scale: number): { left: number; width: number }[] {
  const widths = times.map((t) => ((t.ms ?? 0) / scale) * 100);
  return widths.map((width, i) => ({ left: widths.slice(0, i).reduce((a, b) => a + b, 0), width }));
}

/** How the budgets stack up against the target, per percentile, updated as the user types. */
export function FitSummary({ doc, fit }: { doc: BudgetDocument; fit: BudgetFit }) {
  const targetKey = fit.targetKey ?? "p95";
  const atTarget = fit.byPercentile[targetKey];
  const scale = Math.max(doc.targetMs || 0, atTarget.stackedMs) * 1.05 || 1;
  return (
    <div className="space-y-3" aria-live="polite">
      <table className="w-full text-sm">
        <caption className="sr-only">Budget fit per percentile</caption>
        <thead>
          <tr className="text-left text-slate-500">
            <th className="font-normal">Percentile</th>
            <th className="text-right font-normal">Stacked</th>
            <th className="text-right font-normal">
              Margin to {Number.isFinite(doc.targetMs) ? formatMs(doc.targetMs) : "target"}
            </th>
          </tr>
        </thead>
        <tbody>
          {PERCENTILES.map((key) => {
            const f = fit.byPercentile[key];
            return (
              <tr key={key} data-testid={`fit-${key}`} className={cx(key === targetKey && "font-semibold")}>
                <td>
                  {key}
                  {key === targetKey && <span className="ml-1 text-xs font-normal text-slate-500">(target)</span>}
                </td>
                <td className="text-right tabular-nums" data-testid={`stacked-${key}`}>
                  {formatMs(f.stackedMs)}
                </td>
                <td
                  className={cx(
                    "text-right tabular-nums",
                    f.isOverTarget ? "text-red-600 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400",
                  )}
                  data-testid={`margin-${key}`}
                >
                  {f.isOverTarget ? `over by ${formatMs(-f.marginMs)}` : formatMs(f.marginMs)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {atTarget.isOverTarget && (
        <p
          role="status"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          The stacked {targetKey} budgets exceed the target by {formatMs(-atTarget.marginMs)}.
        </p>
      )}
      {atTarget.stagesWithoutBudget.length > 0 && (
        <p className="text-xs text-slate-500">
          Not counted (no {targetKey} budget): {atTarget.stagesWithoutBudget.join(", ")}.
        </p>
      )}
      <div aria-hidden className="relative h-6 w-full overflow-hidden rounded bg-slate-100 dark:bg-slate-800">
        {stackedBars(atTarget.stageTimes, scale).map(({ left, width }, i) => (
          <div
            key={i}
            title={`${doc.stages[i]?.name}: ${formatStageMs(atTarget.stageTimes[i]!.ms)}`}
            className={cx(
              "absolute top-0 h-full border-r border-white/60 dark:border-slate-900/60",
              STAGE_COLOURS[i % STAGE_COLOURS.length],
            )}
            style={{ left: `${left}%`, width: `${width}%` }}
          />
        ))}
        {Number.isFinite(doc.targetMs) && (
          <div
            className="absolute top-0 h-full w-0.5 bg-slate-900 dark:bg-white"
            style={{ left: `${(doc.targetMs / scale) * 100}%` }}
          />
        )}
      </div>
      <p className="text-xs text-slate-500">
        Stage time is the slowest of its parallel components (the critical path); the total is the sum of stages.
        Percentiles do not add exactly: the stacked total is a planning figure, not the end-to-end {targetKey}.
      </p>
    </div>
  );
}
