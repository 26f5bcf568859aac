import { queueMetrics } from "../../lib/domain/capacity";
import { chatApi } from "../../prisma/seed-data";

// A simulated chat-api request: every pipeline component draws its time from a log-normal
// distribution whose median and p95 sit a little inside the seed budget; a stage lasts as long
// as its slowest parallel component; time to first token is the sum of stages. Sampling the
// same request for all of them is what makes stage percentiles not add up to the end-to-end one.

export type IncidentMode = "none" | "rag" | "queue";

export type ComponentModel = { stage: number; label: string; medianMs: number; p95Ms: number };

const Z95 = 1.6448536269514722;

export const COMPONENTS: ComponentModel[] = chatApi.stages.flatMap((stage, s) =>
  stage.components.map((component) => {
    const p95 = component.budgetMs.p95 ?? 50;
    const p50 = component.budgetMs.p50 ?? p95 * 0.6;
    // Healthy traffic uses ~75 % of the p95 budget; the median keeps the seed's shape.
    const p95Ms = p95 * 0.75;
    return { stage: s, label: component.source!.matchers.stage!, medianMs: Math.min(p50 * 0.8, p95Ms * 0.9), p95Ms };
  }),
);

/** Standard normal by Box–Muller; `random` is injectable for tests. */
export function normal(random: () => number = Math.random): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export function logNormalMs(medianMs: number, p95Ms: number, random: () => number = Math.random): number {
  const sigma = Math.log(Math.max(p95Ms, medianMs * 1.01) / medianMs) / Z95;
  return medianMs * Math.exp(sigma * normal(random));
}

/**
 * The serving engine behind the queue: 8 request slots per 20 RPS of traffic (a fleet sized for
 * its load), each request holding one for an exponentially distributed inference time, one
 * queue in front: M/M/c. A 0.24 s mean keeps it 60 % busy; in the queue incident requests get
 * longer (0.34 s) and it runs 85 % busy.
 * The queue stage's time is drawn from that model, so the capacity view's prediction and the
 * measured queue histogram agree.
 */
export const ENGINE = {
  slotsPer20Rps: 8,
  serviceTimeS: { none: 0.24, rag: 0.24, queue: 0.34 } as Record<IncidentMode, number>,
};

export function engineSlots(arrivalRps: number): number {
  return Math.max(1, Math.round((ENGINE.slotsPer20Rps * arrivalRps) / 20));
}

/**
 * A queue wait in M/M/c: none with probability 1 − C, else exponential with rate cμ − λ. The
 * arrival rate is the one the generator really produced (a busy machine fires late), the slots
 * are the fleet's, sized for the configured rate.
 */
export function queueWaitMs(
  incident: IncidentMode,
  arrivalRps: number,
  random: () => number = Math.random,
  servers = engineSlots(arrivalRps),
): number {
  const serviceTimeS = ENGINE.serviceTimeS[incident];
  const { probabilityOfWait, stable } = queueMetrics({ arrivalRps, serviceTimeS, servers });
  if (!stable) return 10_000;
  if (random() >= probabilityOfWait) return 0;
  return (-1000 * Math.log(1 - random())) / (servers / serviceTimeS - arrivalRps);
}

/** The engine's gauges at an arrival rate: busy slots (Little's law, λS) and the M/M/c queue length, with noise. */
export function engineGauges(
  incident: IncidentMode,
  arrivalRps: number,
  random: () => number = Math.random,
  servers = engineSlots(arrivalRps),
) {
  const serviceTimeS = ENGINE.serviceTimeS[incident];
  const queue = queueMetrics({ arrivalRps, serviceTimeS, servers });
  const jitter = () => 1 + 0.2 * (random() - 0.5);
  return {
    running: Math.min(servers, Math.round(arrivalRps * serviceTimeS * jitter())),
    waiting: Math.max(0, Math.round((queue.meanQueueLength ?? servers) * jitter())),
  };
}

export type SimulatedRequest = {
  variant: "control" | "treatment";
  componentMs: Map<string, number>;
  ttftMs: number;
  interTokenMs: number;
  promptTokens: number;
  completionTokens: number;
  costDollars: number;
  /** The whole request: first token, then every further token at the inter-token latency. */
  endToEndMs: number;
  /** Time holding an engine slot (prefill and decode). */
  inferenceMs: number;
  finishedReason: "stop" | "length";
  outcome: "ok" | "error" | "timeout";
  prefixCacheHitTokens: number;
  draftTokens: number;
  acceptedTokens: number;
  responseCacheHit: boolean;
};

export function simulateRequest(
  incident: IncidentMode,
  random: () => number = Math.random,
  arrivalRps = 20,
  servers = engineSlots(arrivalRps),
): SimulatedRequest {
  const variant = random() < 0.5 ? "control" : "treatment";
  const componentMs = new Map<string, number>();
  const stageMs: number[] = [];
  for (const c of COMPONENTS) {
    let ms = logNormalMs(c.medianMs, c.p95Ms, random);
    if (c.label === "rag" && incident === "rag") ms *= 3;
    // Admission takes a few ms; the wait for a slot is the engine's M/M/c queue.
    if (c.label === "queue") ms = logNormalMs(2, 5, random) + queueWaitMs(incident, arrivalRps, random, servers);
    // Prefix caching in the treatment: about 25 ms off the first token.
    if (c.label === "llm_first_token" && variant === "treatment") ms = Math.max(5, ms - 25);
    componentMs.set(c.label, ms);
    stageMs[c.stage] = Math.max(stageMs[c.stage] ?? 0, ms);
  }
  const promptTokens = Math.round(600 + 400 * random());
  const completionTokens = Math.round(80 + 160 * random());
  const dollarsPer1k = variant === "control" ? 0.03 : 0.025;
  const ttftMs = stageMs.reduce((a, b) => a + b, 0);
  const interTokenMs = logNormalMs(15, 20, random);
  // Timeouts rise when RAG is slow (the orchestrator gives up on it); errors stay rare.
  const failure = random();
  const timeoutShare = incident === "rag" ? 0.02 : 0.002;
  const outcome = failure < 0.004 ? "error" : failure < 0.004 + timeoutShare ? "timeout" : "ok";
  // Speculative decoding drafts 4 tokens per step; about 70 % are accepted.
  const draftTokens = Math.round(completionTokens * 1.2);
  return {
    variant,
    componentMs,
    ttftMs,
    interTokenMs,
    promptTokens,
    completionTokens,
    costDollars: ((promptTokens + completionTokens) / 1000) * dollarsPer1k,
    endToEndMs: ttftMs + completionTokens * interTokenMs,
    inferenceMs: -ENGINE.serviceTimeS[incident] * 1000 * Math.log(1 - random()),
    finishedReason: random() < 0.85 ? "stop" : "length",
    outcome,
    // The treatment's prefix caching reuses more of the prompt.
    prefixCacheHitTokens: Math.round(promptTokens * (variant === "treatment" ? 0.6 : 0.35) * (0.8 + 0.4 * random())),
    draftTokens,
    acceptedTokens: Math.round(draftTokens * (0.6 + 0.2 * random())),
    responseCacheHit: random() < 0.12,
  };
}
