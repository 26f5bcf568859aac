import "server-only";
import type { MetricSource } from "@/lib/domain/budget";
import type { Proposal } from "@/lib/domain/proposal";
import { componentKey } from "@/lib/domain/waterfall";
import type { StageHistograms } from "@/lib/domain/whatif";
import { AppError } from "@/lib/errors";
import { fetchBucketRates } from "@/lib/prometheus/buckets";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { proposalQuerySchema } from "@/lib/schemas/insights";
import { parseInput } from "@/lib/schemas/parse";
import { proposalDraftSchema } from "@/lib/schemas/service";
import type { Actor } from "./actor";
import { proposeInWorker } from "./compute/pool";
import { guardedRead } from "./mutation";
import { getBudgetForLiveView } from "./budgets";
import type { LiveViewArgs } from "./runtime";

// Proposed budgets from the live distributions of a pipeline's sources: a saved service's budget
// (GET …/budget/proposal), or a pipeline still being put together in the new-service wizard
// (POST /api/proposals, a calculation that stores nothing). The rule is in lib/domain/proposal.ts.

export type ProposalView = Proposal & { slug: string | null; window: string; at: number };

type Pipeline = { name: string; components: { name: string; source: MetricSource | null }[] }[];

async function propose(
  prom: CoalescingClient | null,
  pipeline: Pipeline,
  options: { quantile: number; targetMs: number; window: string; now: number },
): Promise<Omit<ProposalView, "slug">> {
  if (!prom) throw new AppError("UNAVAILABLE", "Prometheus is not configured: set PROMETHEUS_URL to propose budgets.");
  const at = prom.alignTime(options.now);
  const sources = pipeline.flatMap((stage, s) =>
    stage.components.flatMap((c, i) => (c.source ? [{ key: componentKey(s, i), source: c.source }] : [])),
  );
  const result = await fetchBucketRates(prom, sources, { window: options.window, time: at });
  if (result.status === "error") throw new AppError("UNAVAILABLE", `Prometheus query failed: ${result.error}`);
  const stages: StageHistograms = pipeline.map((stage, s) => ({
    name: stage.name,
    components: stage.components.map((c, i) => ({
      name: c.name,
      buckets: result.groups.get(componentKey(s, i)) ?? null,
    })),
  }));
  // Dozens of convolutions for a large pipeline: off the event loop, within a time limit.
  return { ...(await proposeInWorker(stages, { quantile: options.quantile, targetMs: options.targetMs })), window: options.window, at };
}

/** GET /api/services/{slug}/budget/proposal?window=1h[&quantile=0.95] */
export async function getBudgetProposal({ db, prom, slug, query, now = Date.now() / 1000 }: LiveViewArgs) {
  const parsed = parseInput(proposalQuerySchema, query, "The query");
  const budget = await getBudgetForLiveView({ db, slug });
  const view = await propose(prom, budget.stages, {
    quantile: parsed.quantile ?? budget.quantile,
    targetMs: budget.targetMs,
    window: parsed.window,
    now,
  });
  return { ...view, slug } satisfies ProposalView;
}

/**
 * POST /api/proposals: the wizard's pipeline before it is saved. Stores nothing, but it reads
 * histograms the caller names: a signed-in person or a token with read, never anonymous.
 */
export const proposeDraft = guardedRead(
  "histogram.read",
  async ({
    prom,
    input,
    now = Date.now() / 1000,
  }: {
    prom: CoalescingClient | null;
    actor: Actor;
    input: unknown;
    now?: number;
  }): Promise<ProposalView> => {
    const draft = parseInput(proposalDraftSchema, input, "The pipeline");
    const view = await propose(prom, draft.stages, { ...draft, now });
    return { ...view, slug: null };
  },
);
