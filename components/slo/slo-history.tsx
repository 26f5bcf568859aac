"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useViewUrl } from "@/components/insights/use-view-url";
import { Select } from "@/components/ui/primitives";
import { TimeChart } from "@/components/charts/lazy";
import type { BurnWindow } from "@/lib/domain/slo";
import { queries } from "@/lib/queries/resources";
import type { SloHistoryView } from "@/lib/services/slo-history";

// Pyrra-style history under an SLO's numbers: the error budget left over the SLO's window (the
// burn-down), attainment against the objective, and burn rates against the alerts' thresholds,
// with the annotations on all three. The last point of each is the status shown above.

const percent = (v: number) => `${(v * 100).toFixed(Math.abs(v) < 0.1 ? 1 : 0)} %`;
const BURN_COLORS: Partial<Record<BurnWindow, string>> = {
  "1h": "#dc2626",
  "6h": "#ea580c",
  "1d": "#7c3aed",
  "3d": "#0284c7",
};

const RANGES = ["1h", "6h", "1d", "7d", "28d", "30d"];

export function SloHistory({ slug, id, name }: { slug: string; id: string; name: string }) {
  const search = useSearchParams();
  const update = useViewUrl();
  const asked = search.get("history") ?? "";
  const range = RANGES.includes(asked) ? asked : undefined;
  const history = useQuery({
    ...queries.sloHistory(slug, id, range),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
  if (history.isLoading)
    return (
      <div
        className="mt-3 h-32 animate-pulse rounded bg-slate-100 dark:bg-slate-800"
        aria-label="Loading the history"
      />
    );
  if (history.error)
    return <p className="mt-3 text-sm text-red-600">Could not load the history: {history.error.message}</p>;
  const view = history.data!;
  return (
    <section
      className="mt-3 space-y-1 border-t border-slate-100 pt-3 dark:border-slate-800"
      aria-label={`History of ${name}`}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
        <label className="flex items-center gap-1 whitespace-nowrap">
          History over the last
          <Select
            className="w-auto py-0 text-xs"
            value={view.range}
            onChange={(e) => update({ history: e.target.value })}
            aria-label={`History range of ${name}`}
          >
            {RANGES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </Select>
        </label>
        <span>
          At each point the SLO as it stood then, over its own window.
          {view.dataPath?.kind === "recorded" ? " Read from the recording rules' series." : ""}
        </span>
      </div>
      <div className="grid gap-3 lg:grid-cols-3">
        <HistoryChart
          title="Error budget left (%)"
          view={view}
          points={view.points.map((p) => [p.at, p.errorBudgetRemaining])}
          limit={0}
          limitLabel="budget spent"
          format={percent}
          ceiling={1}
          tickFormat={(v) => `${Math.round(v * 100)}`}
          testId="burn-down"
        />
        <HistoryChart
          title="Attainment (%)"
          view={view}
          points={view.points.map((p) => [p.at, p.attainment])}
          limit={view.objective}
          limitLabel="objective"
          format={(v) => `${(v * 100).toFixed(2)} %`}
          ceiling={1}
          tickFormat={(v) => `${Number((v * 100).toPrecision(4))}`}
        />
        <HistoryChart
          title="Burn rate (× budget)"
          view={view}
          points={view.points.map((p) => [p.at, p.burnRates["1h"]])}
          lineName="1h"
          lines={(["6h", "1d", "3d"] as const).map((w) => ({
            name: w,
            color: BURN_COLORS[w]!,
            points: view.points.map((p) => [p.at, p.burnRates[w]] as [number, number | null]),
          }))}
          extraLimits={view.thresholds.map((t) => ({
            value: t.factor,
            label: `${t.severity} ${t.longWindow} ${Number(t.factor.toFixed(2))}×`,
            color: BURN_COLORS[t.longWindow] ?? "#64748b",
          }))}
          format={(v) => `${v.toFixed(v < 10 ? 1 : 0)}×`}
        />
      </div>
    </section>
  );
}

function HistoryChart({
  title,
  view,
  testId,
  ...chart
}: {
  title: string;
  view: SloHistoryView;
  testId?: string;
  points: [number, number | null][];
  limit?: number;
  limitLabel?: string;
  format: (v: number) => string;
  tickFormat?: (v: number) => string;
  ceiling?: number;
  lines?: { name: string; color: string; points: [number, number | null][] }[];
  lineName?: string;
  extraLimits?: { value: number; label: string; color: string }[];
}) {
  const last = [...chart.points].reverse().find(([, v]) => v !== null)?.[1] ?? null;
  return (
    <div data-testid={testId}>
      <p className="flex justify-between text-sm">
        <span className="font-medium">{title}</span>
        <span className="tabular-nums text-slate-500">{last === null ? "—" : chart.format(last)}</span>
      </p>
      <TimeChart
        label={`${title} of ${view.name} over the last ${view.range}`}
        start={view.start}
        end={view.end}
        markers={view.annotations}
        height={128}
        {...chart}
      />
    </div>
  );
}
