// The SLO list's place while the statuses stream in: one card the size of an SLO's (its figures,
// gauge, burn rates, history and alerts), so the page's frame paints before Prometheus answers.

export function SloListSkeleton() {
  return (
    <div
      aria-busy="true"
      aria-label="Loading the SLOs"
      data-testid="slo-skeleton"
      className="h-[26rem] animate-pulse rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="h-6 w-48 rounded bg-slate-100 dark:bg-slate-800" />
      <div className="mt-2 h-4 w-80 rounded bg-slate-100 dark:bg-slate-800" />
      <div className="mt-6 h-32 rounded bg-slate-50 dark:bg-slate-800/60" />
    </div>
  );
}
