import type { WaterfallRow } from "@/components/charts/waterfall-chart";
import type { WaterfallView } from "@/lib/services/waterfall";

/** The waterfall view model as chart rows: one per component, budget marks a hair wide. */
export function toRows(view: WaterfallView): WaterfallRow[] {
  const markHalfWidth = Math.max(0.5, view.targetMs * 0.002);
  return view.stages.flatMap((stage) =>
    stage.components.map((c) => ({
      label: `${stage.name === c.name ? c.name : `${stage.name} · ${c.name}`}${c.onCriticalPath && stage.components.length > 1 ? " ★" : ""}`,
      range: c.actualMs === null ? null : ([stage.startMs, stage.startMs + c.actualMs] as [number, number]),
      budgetMark:
        c.budgetMs === null
          ? null
          : ([stage.startMs + c.budgetMs - markHalfWidth, stage.startMs + c.budgetMs + markHalfWidth] as [
              number,
              number,
            ]),
      status: c.status,
      onCriticalPath: c.onCriticalPath,
      actualMs: c.actualMs,
      budgetMs: c.budgetMs,
      isLowerBound: c.isLowerBound,
    })),
  );
}
