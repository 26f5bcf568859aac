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

export type SimulatedRequest = {
  variant: "control" | "treatment";
  componentMs: Map<string, number>;
  ttftMs: number;
  interTokenMs: number;
  promptTokens: number;
  completionTokens: number;
  costDollars: number;
};

/** Queue time grows like an M/M/1 wait, ρ/(1−ρ): at 95 % utilisation it is ~6× the 75 % one. */
const QUEUE_FACTOR: Record<IncidentMode, number> = { none: 1, rag: 1, queue: 0.95 / 0.05 / (0.75 / 0.25) };

export function simulateRequest(incident: IncidentMode, random: () => number = Math.random): SimulatedRequest {
  const variant = random() < 0.5 ? "control" : "treatment";
  const componentMs = new Map<string, number>();
  const stageMs: number[] = [];
  for (const c of COMPONENTS) {
    let ms = logNormalMs(c.medianMs, c.p95Ms, random);
    if (c.label === "rag" && incident === "rag") ms *= 3;
    if (c.label === "queue") ms *= QUEUE_FACTOR[incident];
    // Prefix caching in the treatment: about 25 ms off the first token.
    if (c.label === "llm_first_token" && variant === "treatment") ms = Math.max(5, ms - 25);
    componentMs.set(c.label, ms);
    stageMs[c.stage] = Math.max(stageMs[c.stage] ?? 0, ms);
  }
  const promptTokens = Math.round(600 + 400 * random());
  const completionTokens = Math.round(80 + 160 * random());
  const dollarsPer1k = variant === "control" ? 0.03 : 0.025;
  return {
    variant,
    componentMs,
    ttftMs: stageMs.reduce((a, b) => a + b, 0),
    interTokenMs: logNormalMs(15, 20, random),
    promptTokens,
    completionTokens,
    costDollars: ((promptTokens + completionTokens) / 1000) * dollarsPer1k,
  };
}
