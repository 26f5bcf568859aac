"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import { Sparkline } from "@/components/charts/lazy";
import type { Marker } from "@/components/charts/markers";
import { Card } from "@/components/ui/primitives";
import { formatPercent } from "@/lib/domain/format";
import type { Percentiles } from "@/lib/domain/kpis";
import { queries } from "@/lib/queries/resources";
import type { KpiView as View } from "@/lib/services/kpis";
import { LiveBanner } from "./live-banner";
import { useViewUrl } from "./use-view-url";
import { WindowSelect } from "./window-select";

const REFRESH_MS = 15_000;
const NO_DATA = "no data";

const ms = (value: number | null, isLowerBound = false) =>
  value === null ? NO_DATA : `${isLowerBound ? "≥ " : ""}${value < 100 ? value.toFixed(1) : Math.round(value)} ms`;
const rate = (value: number | null, unit: string, digits = 1) =>
  value === null ? NO_DATA : `${value.toFixed(digits)} ${unit}`;
const share = (value: number | null, digits = 1) => (value === null ? NO_DATA : formatPercent(value, digits));

/** The window's annotations, drawn on every tile's sparkline. */
const Markers = createContext<Marker[]>([]);

function Tile({
  label,
  value,
  detail,
  spark,
  testId,
}: {
  label: string;
  value: string;
  detail?: string;
  spark?: [number, number | null][];
  testId: string;
}) {
  return (
    <Card className="flex flex-col gap-1">
      <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</h3>
      <p
        data-testid={`kpi-${testId}`}
        className={value === NO_DATA ? "text-lg text-slate-400" : "text-2xl font-semibold tabular-nums"}
      >
        {value}
      </p>
      {detail && <p className="text-xs text-slate-500">{detail}</p>}
      <Sparkline points={spark} label={label} markers={useContext(Markers)} />
    </Card>
  );
}

function percentilesOf(p: Percentiles): { value: string; detail: string } {
  const lower = (k: "p50" | "p95" | "p99") => p.lowerBounds.includes(k);
  return {
    value: ms(p.p95, lower("p95")),
    detail: p.metric
      ? `p50 ${ms(p.p50, lower("p50"))} · p99 ${ms(p.p99, lower("p99"))} · ${p.metric}`
      : "none of its histograms has data",
  };
}

export function KpiView({ slug, window, initial }: { slug: string; window: string; initial: View }) {
  const setUrl = useViewUrl();
  const { data: view, isFetching } = useQuery({
    ...queries.kpis(slug, window),
    initialData: initial.window === window ? initial : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  if (!view) return <p className="text-sm text-slate-500">Loading KPIs…</p>;
  const s = view.sparklines;
  const ttft = percentilesOf(view.ttftMs);
  const itl = percentilesOf(view.itlMs);
  const e2e = percentilesOf(view.endToEndMs);
  return (
    <Markers.Provider value={view.annotations ?? []}>
      <div className="space-y-4">
        <div className="flex flex-wrap items-center gap-4">
          <WindowSelect value={window} onChange={(w) => setUrl({ window: w })} />
          <span className="text-xs text-slate-500" aria-live="polite">
            {isFetching ? "Refreshing…" : `As of ${new Date(view.at * 1000).toLocaleTimeString()}`}
          </span>
        </div>
        <LiveBanner error={view.error} />
        <section aria-label="Latency" className="grid gap-3 sm:grid-cols-3">
          <Tile label="Time to first token p95" testId="ttft" {...ttft} spark={s.ttftP95Ms} />
          <Tile label="Inter-token latency p95" testId="itl" {...itl} spark={s.itlP95Ms} />
          <Tile label="End to end p95" testId="e2e" {...e2e} spark={s.endToEndP95Ms} />
        </section>
        <section aria-label="Throughput and reliability" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Tile
            label="Throughput within SLO"
            testId="throughput"
            value={rate(view.throughputRps, "req/s", 2)}
            detail={view.requestRps === null ? undefined : `of ${view.requestRps.toFixed(2)} req/s in all`}
            spark={s.throughputRps}
          />
          <Tile
            label="Tokens per second within SLO"
            testId="tokens"
            value={rate(view.tokensPerSecond, "tok/s", 0)}
            detail="output tokens × share of requests within the SLO"
            spark={s.tokensPerSecond}
          />
          <Tile
            label="Error rate"
            testId="errors"
            value={share(view.errorRate, 2)}
            detail="failed requests, timeouts included"
            spark={s.errorRate}
          />
          <Tile label="Timeout rate" testId="timeouts" value={share(view.timeoutRate, 2)} spark={s.timeoutRate} />
        </section>
        <section aria-label="SLO and cost" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Tile
            label="SLO attainment"
            testId="attainment"
            value={share(view.sloAttainment, 2)}
            detail={view.slo ? `${view.slo.name}: objective ${formatPercent(view.slo.objective, 1)}` : "no SLO yet"}
            spark={s.sloAttainment}
          />
          <Tile
            label="Cost per successful request"
            testId="cost"
            value={
              view.costPerSuccessfulRequestUsd === null ? NO_DATA : `$${view.costPerSuccessfulRequestUsd.toFixed(4)}`
            }
            spark={s.costPerSuccessfulRequestUsd}
          />
          <Tile
            label="Cache hit rate"
            testId="cache"
            value={share(view.cacheHitRate)}
            detail={`prefix (KV) ${share(view.cacheHitRates.prefix)} · response ${share(view.cacheHitRates.response)}`}
            spark={s.prefixCacheHitRate ?? s.responseCacheHitRate}
          />
          <Tile
            label="Speculative acceptance"
            testId="speculative"
            value={share(view.speculativeAcceptanceRate)}
            detail="accepted ÷ drafted tokens"
            spark={s.speculativeAcceptanceRate}
          />
        </section>
        <p className="text-xs text-slate-500">
          Counters are read with the end-to-end histogram’s labels
          {view.selector
            ? ` (${Object.entries(view.selector)
                .map(([k, v]) => `${k}="${v}"`)
                .join(", ")})`
            : ""}
          , under vLLM’s names or the generic ones; a KPI whose metrics do not exist reads “no data”, never 0.
          {view.annotations?.length
            ? " Marks on the trends are deploys, notes and changes (see the waterfall's timeline)."
            : ""}
        </p>
      </div>
    </Markers.Provider>
  );
}
