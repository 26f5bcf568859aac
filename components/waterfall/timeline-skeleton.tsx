import { TIME_CHART_HEIGHT } from "@/components/charts/sizes";
import type { WaterfallView } from "@/lib/services/waterfall";

// The timeline's place while it streams in after the first paint: the panel's heading and one
// card per chart it will draw (end to end, then each measured component), each the size of a
// chart card, so nothing below moves when the timeline arrives.

export function TimelineSkeleton({ view }: { view: WaterfallView }) {
  const charts = 1 + view.stages.flatMap((s) => s.components).filter((c) => c.hasSource).length;
  return (
    <section
      aria-busy="true"
      aria-label="Loading the timeline"
      data-testid="timeline-skeleton"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-end gap-3">
        <h2 className="text-lg font-semibold">Over time</h2>
        <p className="text-xs text-slate-500">Loading the timeline…</p>
      </div>
      <div className="h-5 w-64 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
      <div className="grid gap-3 md:grid-cols-2">
        {Array.from({ length: charts }, (_, i) => (
          <div key={i} className="rounded-md border border-slate-200 p-2 dark:border-slate-800">
            <div className="h-5 w-40 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
            <div
              className="mt-1 animate-pulse rounded bg-slate-50 dark:bg-slate-900"
              style={{ height: TIME_CHART_HEIGHT }}
            />
          </div>
        ))}
      </div>
    </section>
  );
}
