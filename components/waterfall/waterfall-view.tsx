"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Suspense, use, useState, type ReactNode } from "react";
import { WaterfallChart } from "@/components/charts/lazy";
import { MARKER_COLORS } from "@/components/charts/markers";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { PercentileButtons, PERCENTILES } from "@/components/ui/percentile-buttons";
import { Button, Card, Select, TextInput, cx } from "@/components/ui/primitives";
import { formatMs } from "@/lib/domain/format";
import { queries, type TimelineParams, type WaterfallParams } from "@/lib/queries/resources";
import type { TimelineView } from "@/lib/services/timeline";
import type { WaterfallView as View } from "@/lib/services/waterfall";
import { AlertBadges, useServiceAlerts } from "@/components/alerts/alert-badges";
import type { TimelineRange } from "@/lib/domain/timeline";
import { ComponentTable } from "./component-table";
import { TimelinePanel } from "./timeline-panel";
import { TimelineSkeleton } from "./timeline-skeleton";
import { toRows } from "./to-rows";

const WINDOWS = ["5m", "15m", "1h", "6h", "1d"];
const REFRESH_MS = 15_000;

function toLocalInput(unix: number): string {
  const d = new Date(unix * 1000);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function WaterfallView({
  slug,
  params,
  initial,
  initialTimeline,
}: {
  slug: string;
  params: WaterfallParams & { paused: boolean; range: TimelineRange };
  initial: View;
  /**
   * The timeline the page asked for, and what it was asked for: it streams in after the first
   * paint (undefined when it failed: the panel then asks for it itself).
   */
  initialTimeline?: Promise<{ params: TimelineParams; view: TimelineView } | undefined>;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const [copied, setCopied] = useState(false);
  const { paused, range, ...query } = params;
  const isLive = query.at === undefined;

  const waterfall = useQuery({
    ...queries.waterfall(slug, query),
    initialData: initial,
    placeholderData: keepPreviousData,
    refetchInterval: isLive && !paused ? REFRESH_MS : false,
    staleTime: 5_000,
  });
  const view = waterfall.data;
  const alerts = useServiceAlerts(slug);

  // The whole view state lives in the URL, so a pasted link opens the same view. What only the
  // browser shows differently (the "What changed" filter) changes the URL without asking the server.
  function update(changes: Record<string, string | undefined>, { local = false } = {}) {
    const next = new URLSearchParams(search.toString());
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === "") next.delete(key);
      else next.set(key, value);
    }
    const url = `${pathname}?${next.toString()}`;
    if (local) window.history.replaceState(null, "", url);
    else router.replace(url, { scroll: false });
  }
  const changesParam = search.get("changes") ?? "";
  // The kinds an annotation can be (each has its marker colour); the schema's list would bring zod.
  const changes = Object.hasOwn(MARKER_COLORS, changesParam) ? changesParam : undefined;

  async function copyLink() {
    const url = new URL(window.location.href);
    if (isLive) url.searchParams.set("at", String(view.at));
    await navigator.clipboard?.writeText(url.toString()).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }

  const key = PERCENTILES.find(([q]) => q === view.quantile)?.[1] ?? "p95";
  const delta = view.measuredEndToEndMs !== null ? view.stackedMs - view.measuredEndToEndMs : null;

  return (
    <div className="space-y-4">
      <Card className="flex flex-wrap items-end gap-3 text-sm">
        <PercentileButtons value={query.quantile} onChange={(q) => update({ quantile: String(q) })} />
        <Field label="Window">
          {(control) => (
            <Select
              {...control}
              value={WINDOWS.includes(query.window) ? query.window : "custom"}
              onChange={(e) => e.target.value !== "custom" && update({ window: e.target.value })}
            >
              {WINDOWS.map((w) => (
                <option key={w} value={w}>
                  {w}
                </option>
              ))}
              <option value="custom">{WINDOWS.includes(query.window) ? "custom…" : query.window}</option>
            </Select>
          )}
        </Field>
        <Form
          onSubmit={(e) => {
            e.preventDefault();
            const value = new FormData(e.currentTarget).get("window");
            if (typeof value === "string" && /^[1-9][0-9]{0,4}[mhd]$/.test(value.trim()))
              update({ window: value.trim() });
          }}
        >
          <Field label="Custom window">
            {(control) => (
              <TextInput
                {...control}
                name="window"
                placeholder="e.g. 30m"
                pattern="[1-9][0-9]{0,4}[mhd]"
                title="A number and m, h or d, e.g. 30m; rounded to the nearest of 1m, 2m, 5m, 10m, 15m, 30m, 1h, 2h, 3h, 6h, 12h, 1d, 2d, 3d, 7d"
                className="w-24"
              />
            )}
          </Field>
        </Form>
        <Field label="Compare with">
          {(control) => (
            <Select
              {...control}
              value={query.compare && ["1h", "1d"].includes(query.compare) ? query.compare : query.compare ? "at" : ""}
              onChange={(e) =>
                update({ compare: e.target.value === "at" ? String((query.at ?? view.at) - 1800) : e.target.value })
              }
            >
              <option value="">nothing</option>
              <option value="1h">an hour ago</option>
              <option value="1d">a day ago</option>
              <option value="at">a chosen time…</option>
            </Select>
          )}
        </Field>
        {query.compare && !["1h", "1d"].includes(query.compare) && (
          <Field label="Compare time">
            {(control) => (
              <TextInput
                {...control}
                type="datetime-local"
                value={toLocalInput(Number(query.compare))}
                onChange={(e) =>
                  e.target.value && update({ compare: String(Math.floor(new Date(e.target.value).getTime() / 1000)) })
                }
              />
            )}
          </Field>
        )}
        <Field label="At">
          {(control) => (
            <TextInput
              {...control}
              type="datetime-local"
              value={toLocalInput(view.at)}
              onChange={(e) =>
                e.target.value && update({ at: String(Math.floor(new Date(e.target.value).getTime() / 1000)) })
              }
            />
          )}
        </Field>
        {!isLive && <Button onClick={() => update({ at: undefined })}>Back to live</Button>}
        <div className="ml-auto flex items-center gap-2">
          {isLive && (
            <Button onClick={() => update({ refresh: paused ? undefined : "off" })} aria-pressed={!paused}>
              {paused ? "Resume auto-refresh" : "Pause auto-refresh"}
            </Button>
          )}
          <Button onClick={() => waterfall.refetch()} disabled={waterfall.isFetching}>
            {waterfall.isFetching ? "Refreshing…" : "Refresh"}
          </Button>
          <Button onClick={copyLink}>{copied ? "Link copied" : "Copy link"}</Button>
        </div>
      </Card>

      <div aria-live="polite" className="space-y-2">
        {view.prometheus === "down" && (
          <p
            role="status"
            data-testid="prometheus-state"
            className={cx(
              "rounded-md border px-3 py-2 text-sm",
              view.stale
                ? "border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950"
                : "border-red-300 bg-red-50 dark:border-red-900 dark:bg-red-950",
            )}
          >
            {view.stale
              ? `Showing stale data: stale since ${new Date(view.staleSince!).toLocaleTimeString()}. `
              : "No live data. "}
            {view.error}
          </p>
        )}
        {view.prometheus !== "down" && view.error && (
          <p
            role="status"
            data-testid="prometheus-state"
            className="rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          >
            {view.error}
          </p>
        )}
        {waterfall.error && !view.error && (
          <p className="text-sm text-red-600">Could not refresh: {waterfall.error.message}</p>
        )}
        {view.warnings.length > 0 && (
          <p className="text-xs text-amber-700">Prometheus warned: {view.warnings.join("; ")}</p>
        )}
      </div>

      <div className="grid gap-3 sm:grid-cols-3">
        <Card>
          <p className="text-xs text-slate-500">Stacked {key} (sum of stages)</p>
          <p
            className={cx(
              "text-2xl font-semibold tabular-nums",
              view.stackedMs > view.targetMs ? "text-red-600 dark:text-red-400" : "",
            )}
            data-testid="stacked-total"
          >
            {view.stackedIsLowerBound ? "≥ " : ""}
            {formatMs(Math.round(view.stackedMs))}
          </p>
          <p className="text-xs text-slate-500">
            target {formatMs(view.targetMs)} · budgets stack to {formatMs(view.stackedBudgetMs)}
            {view.stagesWithoutData.length > 0 && (
              <span data-testid="stages-without-data">
                {" "}
                · {view.stagesWithoutData.length} {view.stagesWithoutData.length === 1 ? "stage" : "stages"} without
                data ({view.stagesWithoutData.join(", ")})
              </span>
            )}
            {view.stackedIsLowerBound &&
              view.stagesWithoutData.length === 0 &&
              " · a lower bound: some percentiles are above the last bucket"}
          </p>
        </Card>
        <Card>
          <p className="text-xs text-slate-500">
            Measured end-to-end {key}
            <AlertBadges
              label="end to end"
              alerts={(alerts.data?.alerts ?? []).filter((a) => a.name === "EndToEndOverTarget")}
            />
          </p>
          <p className="text-2xl font-semibold tabular-nums" data-testid="measured-e2e">
            {view.measuredEndToEndMs === null
              ? "—"
              : `${view.measuredEndToEndIsLowerBound ? "≥ " : ""}${formatMs(Math.round(view.measuredEndToEndMs))}`}
          </p>
          <p className="text-xs text-slate-500">
            {delta !== null
              ? `Percentiles do not add: the stacked figure is ${formatMs(Math.round(Math.abs(delta)))} ${delta >= 0 ? "above" : "below"} the measured one.`
              : view.hasEndToEndSource
                ? "No end-to-end data in this window yet."
                : "No end-to-end histogram for this service."}
          </p>
        </Card>
        <Card className={cx(view.worstOffender && "border-red-300 dark:border-red-900")}>
          <p className="text-xs text-slate-500">Worst offender</p>
          {view.worstOffender ? (
            <p className="text-lg font-semibold text-red-600 dark:text-red-400" data-testid="worst-offender">
              {view.worstOffender.component} over by {view.worstOffender.isLowerBound ? "at least " : ""}
              {formatMs(Math.round(view.worstOffender.overByMs))}
            </p>
          ) : view.statusCounts.ok + view.statusCounts.warn + view.statusCounts.unknown === 0 ? (
            <p className="text-lg font-semibold text-slate-500" data-testid="worst-offender">
              Nothing measured yet
            </p>
          ) : (
            <p className="text-lg font-semibold text-emerald-700 dark:text-emerald-400" data-testid="worst-offender">
              {view.statusCounts.unknown > 0
                ? `None over budget; ${view.statusCounts.unknown} unknown`
                : "Every component within budget"}
            </p>
          )}
          <p className="text-xs text-slate-500">
            {isLive ? (paused ? "Auto-refresh paused" : "Live, refreshing every 15 s") : "Fixed time"} · as of{" "}
            {new Date(view.at * 1000).toLocaleTimeString()}
          </p>
        </Card>
      </div>

      <Card>
        <WaterfallChart
          rows={toRows(view)}
          targetMs={view.targetMs}
          stackedMs={view.stackedMs}
          measuredEndToEndMs={view.measuredEndToEndMs}
        />
        <p className="mt-1 text-xs text-slate-500">
          Bars start where the previous stage ends; parallel components share a start and the slowest (★, outlined) is
          the critical path. Thin vertical marks are budgets. Green: within 90 % of budget; amber: near; red: over;
          violet: unknown (the percentile is above the last bucket bound, but the bound is within budget); grey: no
          data.
        </p>
      </Card>
      <Suspense fallback={<TimelineSkeleton view={view} />}>
        <StreamedTimeline
          timeline={initialTimeline}
          render={(initial) => (
            <TimelinePanel
              slug={slug}
              initial={initial}
              quantile={view.quantile}
              window={view.window}
              range={range}
              at={query.at}
              overComponents={view.stages
                .flatMap((stage) => stage.components)
                .filter((c) => c.status === "over")
                .sort((a, b) => b.actualMs! - b.budgetMs! - (a.actualMs! - a.budgetMs!))
                .map((c) => c.name)}
              changes={changes}
              onChanges={(kind) => update({ changes: kind }, { local: true })}
              onRange={(r) => update({ range: r === "1h" ? undefined : r })}
              onPin={(t) => update({ at: String(Math.round(t)) })}
              onCompare={(t) => update({ compare: String(Math.round(t)) })}
            />
          )}
        />
      </Suspense>
      <ComponentTable view={view} alerts={alerts.data?.alerts ?? []} />
    </div>
  );
}

/** The timeline panel once the page's timeline has arrived (or at once, when there is none to wait for). */
function StreamedTimeline({
  timeline,
  render,
}: {
  timeline?: Promise<{ params: TimelineParams; view: TimelineView } | undefined>;
  render: (initial: { params: TimelineParams; view: TimelineView } | undefined) => ReactNode;
}) {
  return render(timeline ? use(timeline) : undefined);
}
