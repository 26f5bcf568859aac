"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { CdfChart, type CdfSeries } from "@/components/charts/cdf-chart";
import { Form } from "@/components/ui/form";
import { PercentileButtons, PERCENTILES } from "@/components/ui/percentile-buttons";
import { Badge, Button, Card, Select, TextInput } from "@/components/ui/primitives";
import { formatPercent, formatSignedMs } from "@/lib/domain/format";
import { ApiError } from "@/lib/queries/api";
import { queries, type WhatIfParams } from "@/lib/queries/resources";
import type { WhatIfView as View } from "@/lib/services/whatif";
import { LiveBanner } from "./live-banner";
import { useViewUrl } from "./use-view-url";
import { WindowSelect } from "./window-select";

const ms = (value: number | null, digits = 1) => (value === null ? "no data" : `${value.toFixed(digits)} ms`);

/** "; the buckets allow 1,912–2,131 ms": the reading with every bucket's mass at its lower and upper edge. */
function bucketsAllow(bounds: { lowerMs: number; upperMs: number | null } | null): string {
  if (!bounds) return "";
  const whole = (v: number) => Math.round(v).toLocaleString("en-US");
  return `; the buckets allow ${whole(bounds.lowerMs)}–${bounds.upperMs === null ? "∞ (+Inf bucket)" : whole(bounds.upperMs)} ms`;
}

function Figure({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <Card>
      <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</h3>
      <p className="text-2xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </p>
      {detail && <p className="text-xs text-slate-500">{detail}</p>}
    </Card>
  );
}

/** Points up to where the baseline reaches 99.9 %: the far tail only squeezes the chart. */
function clip(points: [number, number][], upToMs: number): { ms: number; share: number }[] {
  return points.filter(([x]) => x <= upToMs && x >= 0).map(([x, share]) => ({ ms: x, share }));
}

export function WhatIfView({
  slug,
  params,
  components,
  initial,
}: {
  slug: string;
  params: WhatIfParams;
  components: string[];
  initial: View | null;
}) {
  const setUrl = useViewUrl();
  const [component, setComponent] = useState(components[0] ?? "");
  const [change, setChange] = useState("-50");
  const { data: view, error } = useQuery({
    ...queries.whatIf(slug, params),
    initialData: initial ?? undefined,
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const key = PERCENTILES.find(([q]) => q === params.quantile)?.[1] ?? "p95";
  const changeErrors = error instanceof ApiError ? Object.values(error.body.fields ?? {}) : [];

  function addChange(event: React.FormEvent) {
    event.preventDefault();
    const value = change.trim();
    if (!component || !value) return;
    const others = params.change.filter((c) => !c.startsWith(`${component}:`));
    setUrl({ change: [...others, `${component}:${value}`] });
  }

  const upTo = view?.cdf.baseline.find(([, share]) => share >= 0.999)?.[0] ?? Number.POSITIVE_INFINITY;
  const series: CdfSeries[] = view
    ? [
        ...(view.cdf.measured.length
          ? [
              {
                name: "Measured end to end",
                points: clip(view.cdf.measured, upTo),
                markers: view.measuredEndToEndMs === null ? [] : [{ label: key, ms: view.measuredEndToEndMs }],
              },
            ]
          : []),
        {
          name: "Predicted (independent)",
          points: clip(view.cdf.baseline, upTo),
          markers: view.baselinePredictedMs === null ? [] : [{ label: key, ms: view.baselinePredictedMs }],
        },
        ...(view.cdf.predicted.length
          ? [
              {
                name: "After the changes",
                points: clip(view.cdf.predicted, upTo),
                markers: view.predictedEndToEndMs === null ? [] : [{ label: key, ms: view.predictedEndToEndMs }],
              },
            ]
          : []),
      ]
    : [];

  return (
    <div className="space-y-4">
      <Card className="flex flex-wrap items-end gap-4 text-sm">
        <PercentileButtons value={params.quantile} onChange={(q) => setUrl({ quantile: String(q) })} />
        <WindowSelect value={params.window} onChange={(w) => setUrl({ window: w })} />
        <Form className="flex flex-wrap items-end gap-2" onSubmit={addChange}>
          <label className="flex flex-col gap-1">
            <span className="font-medium">Component</span>
            <Select aria-label="Component" value={component} onChange={(e) => setComponent(e.target.value)}>
              {components.map((name) => (
                <option key={name}>{name}</option>
              ))}
            </Select>
          </label>
          <label className="flex flex-col gap-1">
            <span className="font-medium">Change</span>
            <TextInput
              aria-label="Change"
              value={change}
              onChange={(e) => setChange(e.target.value)}
              className="w-28"
              placeholder="-50 or ×0.7"
            />
          </label>
          <Button type="submit">Add change</Button>
        </Form>
      </Card>
      {params.change.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Changes">
          {params.change.map((c) => (
            <li
              key={c}
              className="flex items-center gap-1 rounded border border-slate-300 px-2 py-1 text-sm dark:border-slate-700"
            >
              {c.replace(/:/, " ")}
              <button
                type="button"
                className="ml-1 text-slate-500 hover:text-red-600"
                aria-label={`Remove ${c}`}
                onClick={() => setUrl({ change: params.change.filter((x) => x !== c) })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {changeErrors.length > 0 && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {changeErrors.join(" ")}
        </p>
      )}
      {view && (
        <>
          <LiveBanner
            error={view.error}
            notes={view.missing.length ? [`No data for: ${view.missing.join(", ")} (left out of their stages).`] : []}
          />
          <section className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Prediction">
            <Figure
              label={view.changes.length ? `Predicted ${key} after the changes` : `Predicted ${key}`}
              testId="predicted"
              value={`${view.isLowerBound ? "≥ " : ""}${ms(view.predictedEndToEndMs)}`}
              detail={
                view.errorBoundMs === null
                  ? undefined
                  : `± ${view.errorBoundMs.toFixed(1)} ms from the grid${bucketsAllow(view.bucketBounds.predicted)}`
              }
            />
            <Figure
              label={`Measured ${key} end to end`}
              testId="measured"
              value={ms(view.measuredEndToEndMs)}
              detail={
                view.correlationGapMs === null
                  ? "no end-to-end histogram"
                  : `${view.correlationGapMs >= 0 ? "+" : "−"}${Math.abs(view.correlationGapMs).toFixed(1)} ms vs predicted: ${Math.abs(view.correlationGapMs) > Math.max(5, 0.05 * (view.baselinePredictedMs ?? 0)) ? "components are correlated" : "consistent with independence"}`
              }
            />
            <Figure
              label={`Stacked ${key}s`}
              testId="stacked"
              value={ms(view.stackedMs)}
              detail="sum of stage percentiles: percentiles do not add"
            />
            <Figure
              label={`Within ${view.targetMs} ms`}
              testId="attainment"
              value={view.attainment.predicted === null ? "no data" : formatPercent(view.attainment.predicted, 2)}
              detail={
                view.changes.length && view.attainment.baseline !== null
                  ? `predicted now: ${formatPercent(view.attainment.baseline, 2)}; measured: ${formatPercent(view.attainment.measured, 2)}`
                  : `measured: ${formatPercent(view.attainment.measured, 2)}`
              }
            />
          </section>
          {view.changes.length > 0 && view.adjustedEndToEndMs !== null && (
            <p className="text-sm" data-testid="adjusted">
              {view.changes.map((c) => `${c.component} ${c.change}`).join(", ")}: predicted {key} moves{" "}
              <strong>{formatSignedMs((view.predictedEndToEndMs ?? 0) - (view.baselinePredictedMs ?? 0))}</strong>;
              applied to the measured end to end that is <strong>{ms(view.adjustedEndToEndMs)}</strong>.
            </p>
          )}
          {series.length > 0 && series.some((s) => s.points.length) && (
            <CdfChart
              series={series}
              label="End-to-end distribution: measured, predicted, and after the changes (cumulative)"
            />
          )}
          <p className="text-xs text-slate-500">
            <Badge>{view.method}</Badge> {view.assumptions} The gap between measured and predicted is the correlation
            the independence assumption leaves out.
          </p>
        </>
      )}
    </div>
  );
}
