"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { QueueChart } from "@/components/charts/queue-chart";
import { Form } from "@/components/ui/form";
import { Button, Card, TextInput } from "@/components/ui/primitives";
import { formatPercent } from "@/lib/domain/format";
import { queries } from "@/lib/queries/resources";
import type { LiveCapacity } from "@/lib/services/capacity";
import { predictedWaitText } from "./capacity-text";
import { LiveBanner } from "./live-banner";
import { PlanCalculator, QueueCalculator } from "./capacity-calculators";
import { useViewUrl } from "./use-view-url";
import { WindowSelect } from "./window-select";

const REFRESH_MS = 15_000;

const num = (value: number | null, digits: number, unit: string) =>
  value === null ? "no data" : `${value.toFixed(digits)}${unit}`;

function Fact({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
      {detail && <dd className="text-xs text-slate-500">{detail}</dd>}
    </div>
  );
}

export function CapacityView({
  slug,
  window,
  servers,
  initial,
}: {
  slug: string;
  window: string;
  servers?: number;
  initial: LiveCapacity;
}) {
  const setUrl = useViewUrl();
  const [slots, setSlots] = useState(servers ? String(servers) : "");
  const { data: view } = useQuery({
    ...queries.capacity(slug, window, servers),
    initialData: initial.window === window ? initial : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  if (!view) return <p className="text-sm text-slate-500">Loading the operating point…</p>;
  const key = `p${Math.round(view.quantile * 100)}`;
  const queue = view.queueComponent;
  const overQueue = view.headroomRps !== null && view.headroomRps < 0;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <WindowSelect value={window} onChange={(w) => setUrl({ window: w })} />
        <Form
          className="flex items-end gap-2 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            setUrl({ servers: slots.trim() || undefined });
          }}
        >
          <label className="flex flex-col gap-1">
            <span className="font-medium">Slots (concurrent requests the fleet serves)</span>
            <TextInput
              aria-label="Slots"
              inputMode="numeric"
              placeholder={view.serversSource === "metric" ? `${view.servers} from llm_engine_slots` : "e.g. 8"}
              value={slots}
              onChange={(e) => setSlots(e.target.value)}
              className="w-56"
            />
          </label>
          <Button type="submit">Use</Button>
        </Form>
      </div>
      <LiveBanner error={view.error} notes={view.notes} />
      <Card className="space-y-3">
        <h2 className="font-semibold">Live operating point</h2>
        <dl className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
          <Fact label="Arrival rate λ" value={num(view.arrivalRps, 2, " req/s")} testId="arrival-rate" />
          <Fact
            label="Service time S"
            value={view.serviceTimeS === null ? "no data" : `${(view.serviceTimeS * 1000).toFixed(0)} ms`}
            detail={
              view.serviceTimeSource === "littles-law"
                ? "from Little's law: running ÷ λ"
                : view.serviceTimeSource
                  ? "mean of the inference histogram"
                  : undefined
            }
          />
          <Fact
            label="Slots c"
            value={view.servers === null ? "unknown" : String(view.servers)}
            detail={
              view.serversSource === "query"
                ? "as given"
                : view.serversSource === "metric"
                  ? "from llm_engine_slots"
                  : undefined
            }
          />
          <Fact
            label="Utilisation ρ"
            value={view.utilization === null ? "no data" : formatPercent(view.utilization, 1)}
            testId="utilization"
          />
          <Fact
            label="In flight (Little)"
            value={
              view.arrivalRps !== null && view.serviceTimeS !== null
                ? (view.arrivalRps * view.serviceTimeS).toFixed(1)
                : "no data"
            }
            detail={
              view.running === null
                ? undefined
                : `running gauge: ${view.running.toFixed(1)}, waiting: ${num(view.waiting, 1, "")}`
            }
          />
          <Fact
            label="P(wait)"
            value={view.queue ? formatPercent(view.queue.probabilityOfWait, 1) : "no data"}
            detail="Erlang C"
          />
        </dl>
        {queue && (
          <p className="text-sm" data-testid="queue-verdict">
            {queue.name}: predicted {key} wait{" "}
            <strong>
              {predictedWaitText(view)}
            </strong>
            , measured{" "}
            <strong>
              {queue.measuredMs === null
                ? "no data"
                : `${queue.measuredIsLowerBound ? "≥ " : ""}${queue.measuredMs.toFixed(0)} ms`}
            </strong>
            , budget <strong>{queue.budgetMs === null ? "none" : `${queue.budgetMs} ms`}</strong>.{" "}
            {view.predictedWaitMgcMs !== null && view.serviceTimeCs2 !== null && (
              <span data-testid="mgc-wait">
                M/G/c (Allen–Cunneen, service-time Cs² {view.serviceTimeCs2.toFixed(2)}):{" "}
                <strong>{view.predictedWaitMgcMs.toFixed(0)} ms</strong>.{" "}
              </span>
            )}
            {view.maxRpsWithinQueueBudget !== null && (
              <span className={overQueue ? "font-medium text-red-700 dark:text-red-400" : undefined}>
                Queueing alone eats the budget above{" "}
                <strong data-testid="max-rps">{view.maxRpsWithinQueueBudget.toFixed(1)} req/s</strong>
                {view.headroomRps !== null &&
                  (overQueue
                    ? ` — ${(-view.headroomRps).toFixed(1)} req/s past it now.`
                    : ` — ${view.headroomRps.toFixed(1)} req/s of headroom.`)}
              </span>
            )}
          </p>
        )}
        {view.gaps.length > 0 && (
          <ul className="space-y-1 rounded-md bg-amber-50 p-2 text-xs dark:bg-amber-950" data-testid="capacity-gaps">
            {view.gaps.map((gap) => (
              <li key={gap}>{gap}</li>
            ))}
          </ul>
        )}
        {view.curve.length > 0 ? (
          <QueueChart
            curve={view.curve}
            budgetMs={queue?.budgetMs ?? null}
            quantileLabel={key}
            point={
              view.utilization !== null && view.predictedWaitMs !== null
                ? { utilization: view.utilization, waitMs: view.predictedWaitMs }
                : null
            }
          />
        ) : (
          <p className="text-sm text-slate-500">The curve needs an arrival rate, a service time and a slot count.</p>
        )}
        <p className="text-xs text-slate-500">
          M/M/c: Poisson arrivals, exponential service times, one queue in front of c slots. Past about 80 % busy the
          wait climbs steeply; the dot is where the service runs in the last {window}. The M/G/c figure corrects the
          wait for how variable the measured service times really are (Allen–Cunneen: × (1 + Cs²) / 2), an
          approximation.
        </p>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <PlanCalculator />
        <QueueCalculator />
      </div>
    </div>
  );
}
