"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { TimeChart } from "@/components/charts/lazy";
import { Field } from "@/components/ui/field";
import { Card, Select, cx } from "@/components/ui/primitives";
import { formatMs, sinceText } from "@/lib/domain/format";
import { TIMELINE_RANGES, timelineEnd, type TimelineRange } from "@/lib/domain/timeline";
import { queries, type TimelineParams } from "@/lib/queries/resources";
import type { TimelineView } from "@/lib/services/timeline";
import { AnnotationList } from "./annotation-list";

// Under the waterfall: each component's pXX over the range against its budget, since when each
// is over, the annotations that say what changed, and the slowest requests of a component.

const REFRESH_MS = 15_000;

export function TimelinePanel({
  slug,
  quantile,
  window,
  range,
  at,
  overComponents,
  changes,
  onChanges,
  onRange,
  onPin,
  onCompare,
  initial,
}: {
  slug: string;
  quantile: number;
  window: string;
  range: TimelineRange;
  /** The pinned moment, when the page is pinned. */
  at?: number;
  /** Components over budget in the waterfall now, worst first: the slow-requests list starts with the first. */
  overComponents: string[];
  /** The kind of annotation "What changed" is filtered to (?changes= in the URL). */
  changes?: string;
  onChanges: (kind: string | undefined) => void;
  onRange: (range: TimelineRange) => void;
  onPin: (unix: number) => void;
  onCompare: (unix: number) => void;
  /** The timeline the page arrived with, and what it was asked for. */
  initial?: { params: TimelineParams; view: TimelineView };
}) {
  // A pinned page shows the range around its moment, a quarter of it after (the server stops at now).
  const end = at === undefined ? undefined : timelineEnd(at, range);
  const params: TimelineParams = { quantile, range, window, end };
  const isInitial =
    initial !== undefined &&
    (Object.keys(params) as (keyof TimelineParams)[]).every((k) => initial.params[k] === params[k]);
  const timeline = useQuery({
    ...queries.timeline(slug, params),
    initialData: isInitial ? initial.view : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: end === undefined ? REFRESH_MS : false,
  });
  const view = timeline.data;
  const components = view?.series.filter((s) => s.hasSource).map((s) => s.component) ?? [];
  const [picked, setPicked] = useState<string | null>(null);
  const slowComponent = picked ?? overComponents[0] ?? components[0] ?? null;
  const exemplars = useQuery({
    ...queries.exemplars(slug, { component: slowComponent ?? "", window: range, end: view?.end, limit: 50 }),
    enabled: slowComponent !== null && view !== undefined,
    placeholderData: keepPreviousData,
  });

  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <h2 className="text-lg font-semibold">Over time</h2>
        <Field label="Range">
          {(control) => (
            <Select {...control} value={range} onChange={(e) => onRange(e.target.value as TimelineRange)}>
              {TIMELINE_RANGES.map((r) => (
                <option key={r} value={r}>
                  last {r}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <p className="text-xs text-slate-500">
          {view
            ? `p${quantile * 100} every ${view.stepSeconds < 60 ? `${view.stepSeconds} s` : `${view.stepSeconds / 60} min`}, each point over the preceding ${view.rateWindow}. Click a chart to pin the page to that moment.`
            : "Loading the timeline…"}
        </p>
      </div>
      {view?.error && (
        <p role="status" className="text-sm text-amber-700 dark:text-amber-400">
          {view.error}
        </p>
      )}
      {timeline.error && <p className="text-sm text-red-600">Could not load the timeline: {timeline.error.message}</p>}
      {!view && !timeline.error && <div className="h-40 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />}
      {view && <OverSummary view={view} />}
      {view && (
        <div className="grid gap-3 md:grid-cols-2" data-testid="timeline">
          <TimelineCard
            title={view.endToEnd ? "End to end (measured)" : "End to end (stacked stages)"}
            points={(view.endToEnd ?? view.stacked).points}
            limit={view.targetMs}
            limitLabel="target"
            over={view.endToEnd?.overTargetSince ?? null}
            view={view}
            at={at}
            onPin={onPin}
          />
          {view.series
            .filter((s) => s.hasSource)
            .map((s) => (
              <TimelineCard
                key={`${s.stage}/${s.component}`}
                title={s.component}
                subtitle={s.stage !== s.component ? s.stage : undefined}
                points={s.points}
                limit={s.budgetMs}
                limitLabel="budget"
                over={s.overBudgetSince}
                overFromStart={s.overBudgetSinceRangeStart}
                view={view}
                at={at}
                onPin={onPin}
                dots={
                  s.component === slowComponent
                    ? (exemplars.data?.exemplars ?? []).map((e) => ({ at: e.at, value: e.valueMs }))
                    : undefined
                }
              />
            ))}
        </div>
      )}
      {view && (
        <AnnotationList
          slug={slug}
          view={view}
          at={at}
          kind={changes}
          onKind={onChanges}
          onPin={onPin}
          onCompare={onCompare}
        />
      )}
      {view && components.length > 0 && (
        <section
          aria-labelledby="slow-requests"
          className="space-y-2 border-t border-slate-100 pt-3 dark:border-slate-800"
        >
          <div className="flex flex-wrap items-end gap-3">
            <h3 id="slow-requests" className="font-semibold">
              Slowest requests
            </h3>
            <Field label="Component">
              {(control) => (
                <Select {...control} value={slowComponent ?? ""} onChange={(e) => setPicked(e.target.value)}>
                  {components.map((c) => (
                    <option key={c} value={c}>
                      {c}
                      {overComponents.includes(c) ? " (over budget)" : ""}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <p className="text-xs text-slate-500">
              Exemplars Prometheus stored for its histogram in the last {range}, slowest first; drawn as red dots on its
              chart.
            </p>
          </div>
          {exemplars.isLoading && <p className="text-sm text-slate-500">Loading the slow requests…</p>}
          {exemplars.error && (
            <p className="text-sm text-red-600">Could not load the slow requests: {exemplars.error.message}</p>
          )}
          {exemplars.data?.error && <p className="text-sm text-amber-700">{exemplars.data.error}</p>}
          {exemplars.data?.note && (
            <p role="status" className="text-sm text-slate-600 dark:text-slate-300" data-testid="exemplar-note">
              {exemplars.data.note}
            </p>
          )}
          {exemplars.data && exemplars.data.exemplars.length > 0 && (
            <table className="w-full text-sm" aria-label={`Slowest requests of ${slowComponent}`}>
              <thead className="text-left text-xs text-slate-500">
                <tr>
                  <th className="py-1 font-normal">Latency</th>
                  <th className="py-1 font-normal">At</th>
                  <th className="py-1 font-normal">Trace</th>
                </tr>
              </thead>
              <tbody>
                {exemplars.data.exemplars.slice(0, 10).map((e) => (
                  <tr key={`${e.traceId}-${e.at}`} className="border-t border-slate-100 dark:border-slate-800">
                    <td className="py-1 tabular-nums">{formatMs(Math.round(e.valueMs * 10) / 10)}</td>
                    <td className="py-1 tabular-nums">{new Date(e.at * 1000).toLocaleTimeString()}</td>
                    <td className="py-1 font-mono text-xs">
                      {e.url ? (
                        <a
                          className="text-sky-700 underline dark:text-sky-400"
                          href={e.url}
                          target="_blank"
                          rel="noopener noreferrer"
                        >
                          {e.traceId}
                        </a>
                      ) : (
                        <span title="Set LB_TRACE_URL_TEMPLATE to link trace IDs to your tracing backend">
                          {e.traceId}
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </Card>
  );
}

function OverSummary({ view }: { view: TimelineView }) {
  const over = view.series.filter((s) => s.overBudgetSince !== null);
  if (over.length === 0)
    return (
      <p className="text-sm text-emerald-700 dark:text-emerald-400" data-testid="over-summary">
        No component is over budget at the end of this range.
      </p>
    );
  return (
    <ul className="space-y-0.5 text-sm" data-testid="over-summary" aria-label="Over budget">
      {over.map((s) => (
        <li key={`${s.stage}/${s.component}`} className="font-medium text-red-700 dark:text-red-400">
          {s.component} over budget {sinceText(s.overBudgetSince!, view.end, s.overBudgetSinceRangeStart)}
        </li>
      ))}
    </ul>
  );
}

function TimelineCard({
  title,
  subtitle,
  points,
  limit,
  limitLabel,
  over,
  overFromStart = false,
  view,
  at,
  onPin,
  dots,
}: {
  title: string;
  subtitle?: string;
  points: [number, number | null][];
  limit: number | null;
  limitLabel: string;
  over: number | null;
  overFromStart?: boolean;
  view: TimelineView;
  at?: number;
  onPin: (unix: number) => void;
  dots?: { at: number; value: number }[];
}) {
  const last = [...points].reverse().find(([, v]) => v !== null)?.[1] ?? null;
  return (
    <div
      className={cx(
        "rounded-md border p-2",
        over !== null ? "border-red-300 dark:border-red-900" : "border-slate-200 dark:border-slate-800",
      )}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
        <p className="font-medium">
          {title}
          {subtitle && <span className="ml-1 text-xs font-normal text-slate-500">{subtitle}</span>}
          <span className="ml-1 text-xs font-normal text-slate-500">ms</span>
        </p>
        <p className="text-xs tabular-nums text-slate-500">
          {last === null ? "no data" : formatMs(Math.round(last))}
          {limit !== null && ` / ${formatMs(limit)}`}
        </p>
      </div>
      {over !== null && (
        <p className="text-xs font-medium text-red-700 dark:text-red-400">
          over {limitLabel} {sinceText(over, view.end, overFromStart)}
        </p>
      )}
      <TimeChart
        label={`${title}: p${view.quantile * 100} over the last ${view.range} against its ${limitLabel}`}
        points={points}
        start={view.start}
        end={view.end}
        limit={limit}
        over={over}
        markers={view.annotations}
        pinnedAt={at}
        dots={dots}
        onPick={onPin}
      />
    </div>
  );
}
