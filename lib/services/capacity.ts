import "server-only";
import { percentileKeyOf } from "@/lib/domain/budget";
import {
  allenCunneenWaitS,
  serviceTimeCs2,
  maxRpsWithinWaitBudget,
  planCapacity,
  queueCurve,
  queueMetrics,
  waitQuantileS,
  type CapacityPlan,
  type CurvePoint,
  type QueueResult,
} from "@/lib/domain/capacity";
import { histogramQuantile } from "@/lib/domain/histogram";
import { known } from "@/lib/domain/kpis";
import { kindOf } from "@/lib/domain/units";
import { fetchBucketRates } from "@/lib/prometheus/buckets";
import { capacityExprs, KPI_LABEL, taggedExprs } from "@/lib/prometheus/kpis";
import { assertDuration, nativeQuery, selector } from "@/lib/prometheus/promql";
import { capacityPlanSchema, capacityQuerySchema, queueInputSchema } from "@/lib/schemas/insights";
import { parseInput } from "@/lib/schemas/parse";
import type { LiveViewArgs } from "./runtime";
import type { Actor } from "./actor";
import { getBudgetForLiveView, type BudgetView } from "./budgets";
import { guardedRead } from "./mutation";

// Capacity: the two calculators (Little's law plan, M/M/c queue) and the live operating point of
// a service — arrival rate from its request counter, service time from the engine's histogram
// (or Little's law over the running gauge), slots from a gauge or the caller — placed on the
// wait-versus-utilisation curve, with the rate at which queueing alone would eat its budget.

type Calculation = { actor: Actor; input: unknown };

/** Calculations store nothing: whoever may view may run them (they are POSTs only for their body). */
export const calculatePlan = guardedRead("read", async ({ input }: Calculation): Promise<CapacityPlan> =>
  planCapacity(parseInput(capacityPlanSchema, input, "The plan")),
);

export type QueueAnswer = QueueResult & { waitP95S: number | null; curve: CurvePoint[] };

export const calculateQueue = guardedRead("read", async ({ input }: Calculation): Promise<QueueAnswer> => {
  const data = parseInput(queueInputSchema, input, "The queue");
  const result = queueMetrics(data);
  return {
    ...result,
    waitP95S: result.stable ? waitQuantileS(data, 0.95) : null,
    curve: queueCurve(data, 0.95),
  };
});

export type LiveCapacity = {
  slug: string;
  window: string;
  at: number;
  prometheus: "up" | "down" | "unconfigured";
  error: string | null;
  quantile: number;
  arrivalRps: number | null;
  serviceTimeS: number | null;
  serviceTimeSource: "histogram" | "littles-law" | null;
  servers: number | null;
  serversSource: "query" | "metric" | null;
  running: number | null;
  waiting: number | null;
  utilization: number | null;
  queue: QueueResult | null;
  /** The component that is the queue (its name or stage says "queue"), its budget and measured time. */
  queueComponent: {
    stage: string;
    name: string;
    budgetMs: number | null;
    measuredMs: number | null;
    /** The measured pXX fell in the +Inf bucket: it is at least measuredMs. */
    measuredIsLowerBound: boolean;
  } | null;
  /** M/M/c's wait at the budget's percentile for the measured load. */
  predictedWaitMs: number | null;
  /** Var(S)/E[S]² of the inference histogram: 1 for exponential service times, 0 for constant ones. */
  serviceTimeCs2: number | null;
  /** Allen–Cunneen's M/G/c approximation of the same wait, from the service times' own variability. */
  predictedWaitMgcMs: number | null;
  /** Where the live numbers disagree, why they may, and which one the prediction uses. */
  gaps: string[];
  maxRpsWithinQueueBudget: number | null;
  headroomRps: number | null;
  curve: CurvePoint[];
  /** What could not be read, and what to set to get it. */
  notes: string[];
};

/** The engine's slot time: what M/M/c calls the service time. */
const SERVICE_TIME_HISTOGRAM = "vllm:request_inference_time_seconds";

/** Where two live readings that should agree do not, said on the page with the likely reasons. */
export function explainGaps(view: LiveCapacity, key: string): string[] {
  const gaps: string[] = [];
  const { arrivalRps, serviceTimeS, running } = view;
  if (arrivalRps !== null && serviceTimeS !== null && running !== null && view.serviceTimeSource === "histogram") {
    const little = arrivalRps * serviceTimeS;
    if (Math.abs(little - running) > 0.25 * Math.max(little, running) && Math.abs(little - running) >= 1)
      gaps.push(
        `The running gauge says ${running.toFixed(1)} requests hold a slot; λ × S says ${little.toFixed(1)}. ` +
          `The gauge may count requests the arrival histogram does not see (other clients of the same engine), or the inference histogram may miss part of the slot time. The prediction uses λ × S.`,
      );
  }
  const measured = view.queueComponent?.measuredMs ?? null;
  const predicted = view.predictedWaitMgcMs ?? view.predictedWaitMs;
  if (measured !== null && predicted !== null && measured - predicted > Math.max(20, 0.5 * predicted))
    gaps.push(
      `The measured queue ${key} (${measured.toFixed(0)} ms) is above the predicted wait (${predicted.toFixed(0)} ms): ` +
        `arrivals may come in bursts (the model assumes Poisson), the slot count may be lower than the model's, or the queue component may time more than the wait for a slot (admission, retries).`,
    );
  return gaps;
}

function findQueue(budget: BudgetView) {
  for (const stage of budget.stages)
    for (const component of stage.components)
      if (/queue/i.test(component.name) || (stage.components.length === 1 && /queue/i.test(stage.name)))
        return { stage: stage.name, component };
  return null;
}

/** Requests per second: the end-to-end histogram's count, else the first measured component's. */
function arrivalsExpr(budget: BudgetView, window: string): string | null {
  const source =
    budget.endToEndSource ?? budget.stages.flatMap((s) => s.components).find((c) => c.source)?.source ?? null;
  if (!source) return null;
  return kindOf(source) === "native"
    ? `histogram_count(${nativeQuery(source, "rate", window)})`
    : `sum(rate(${selector(`${source.metric}_count`, source.matchers)}[${assertDuration(window)}]))`;
}

export async function getLiveCapacity({
  db,
  prom,
  slug,
  query,
  now = Date.now() / 1000,
}: LiveViewArgs): Promise<LiveCapacity> {
  const { window, servers: askedServers } = parseInput(capacityQuerySchema, query, "The query");
  const budget = await getBudgetForLiveView({ db, slug });
  const key = percentileKeyOf(budget.quantile) ?? "p95";
  const queue = findQueue(budget);
  const view: LiveCapacity = {
    slug,
    window,
    at: Math.floor(now),
    prometheus: prom ? "up" : "unconfigured",
    error: prom ? null : "Prometheus is not configured: set PROMETHEUS_URL to see the live operating point.",
    quantile: budget.quantile,
    arrivalRps: null,
    serviceTimeS: null,
    serviceTimeSource: null,
    servers: askedServers ?? null,
    serversSource: askedServers ? "query" : null,
    running: null,
    waiting: null,
    utilization: null,
    queue: null,
    queueComponent: queue
      ? {
          stage: queue.stage,
          name: queue.component.name,
          budgetMs: queue.component.budgetMs[key],
          measuredMs: null,
          measuredIsLowerBound: false,
        }
      : null,
    predictedWaitMs: null,
    serviceTimeCs2: null,
    predictedWaitMgcMs: null,
    gaps: [],
    maxRpsWithinQueueBudget: null,
    headroomRps: null,
    curve: [],
    notes: [],
  };
  if (!prom) return view;
  view.at = prom.alignTime(now);
  const arrivals = arrivalsExpr(budget, window);
  if (!arrivals) {
    view.notes.push("No component has a histogram, so the arrival rate cannot be read.");
    return view;
  }
  const matchers = budget.endToEndSource?.matchers ?? {};
  const histograms = [
    { key: "service", source: { metric: SERVICE_TIME_HISTOGRAM, matchers } },
    ...(queue?.component.source ? [{ key: "queue", source: queue.component.source }] : []),
  ];
  const [instant, queueBuckets] = await Promise.all([
    prom.query(taggedExprs(capacityExprs(matchers, arrivals, window)), view.at),
    fetchBucketRates(prom, histograms, { window, time: view.at }),
  ]);
  if (instant.status === "error") {
    return { ...view, prometheus: "down", error: `Prometheus query failed: ${instant.error}` };
  }
  const value = (name: string) => known(instant.samples.find((s) => s.metric[KPI_LABEL] === name)?.value);
  view.arrivalRps = value("arrivalRps");
  view.running = value("running");
  view.waiting = value("waiting");
  const histogramTime = value("serviceTimeS");
  if (histogramTime !== null) {
    view.serviceTimeS = histogramTime;
    view.serviceTimeSource = "histogram";
  } else if (view.running !== null && view.arrivalRps) {
    // Little's law: requests in service = arrival rate × time in service.
    view.serviceTimeS = view.running / view.arrivalRps;
    view.serviceTimeSource = "littles-law";
  } else view.notes.push("No service time: export vllm:request_inference_time_seconds or vllm:num_requests_running.");
  if (view.servers === null) {
    const slots = value("slots");
    if (slots !== null && slots >= 1) {
      view.servers = Math.round(slots);
      view.serversSource = "metric";
    } else view.notes.push("No slot count: export llm_engine_slots, or say how many with ?servers=.");
  }
  if (queueBuckets.status === "success") {
    const service = queueBuckets.groups.get("service");
    view.serviceTimeCs2 = service ? serviceTimeCs2(service) : null;
  }
  if (queueBuckets.status === "success" && view.queueComponent) {
    const estimate = histogramQuantile(budget.quantile, queueBuckets.groups.get("queue") ?? []);
    if (estimate.kind !== "none") {
      view.queueComponent.measuredMs = estimate.value * 1000;
      view.queueComponent.measuredIsLowerBound = estimate.kind === "atLeast";
    }
  }
  if (!queue) view.notes.push("No component is named for a queue, so there is no queue budget to protect.");
  if (view.arrivalRps === null) view.notes.push("No requests in this window.");
  const { arrivalRps, serviceTimeS, servers } = view;
  if (arrivalRps !== null && serviceTimeS !== null && serviceTimeS > 0 && servers !== null) {
    const input = { arrivalRps, serviceTimeS, servers };
    view.queue = queueMetrics(input);
    view.utilization = view.queue.utilization;
    const wait = waitQuantileS(input, budget.quantile);
    view.predictedWaitMs = Number.isFinite(wait) ? wait * 1000 : null;
    if (view.serviceTimeCs2 !== null && Number.isFinite(wait))
      view.predictedWaitMgcMs = allenCunneenWaitS(input, budget.quantile, view.serviceTimeCs2) * 1000;
    view.gaps = explainGaps(view, key);
    view.curve = queueCurve({ serviceTimeS, servers }, budget.quantile);
    const budgetMs = view.queueComponent?.budgetMs ?? null;
    if (budgetMs !== null) {
      view.maxRpsWithinQueueBudget = maxRpsWithinWaitBudget(
        { serviceTimeS, servers },
        budget.quantile,
        budgetMs / 1000,
      );
      view.headroomRps = view.maxRpsWithinQueueBudget - arrivalRps;
    }
  }
  return view;
}
