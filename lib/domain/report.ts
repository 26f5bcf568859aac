import { combine, resolveOptions, type Optimization, type Pipeline } from "./optimizations";
import type { WaterfallModel } from "./waterfall";

// The bottleneck report (the shape of a wiki analysis page): an executive summary, the pipeline
// and its budgets, the latency distribution, each component's severity, recommendations ranked
// by end-to-end gain per unit of cost, before/after from decided experiments and the alert rules
// in force. Pure: the live numbers come in, the report goes out; ./report-markdown.ts renders it.

export type Severity = "critical" | "moderate" | "acceptable";

/** A component over budget by at least this share of it, on the critical path, is critical. */
export const CRITICAL_OVERRUN = 0.1;
/** A component taking at least this share of the end-to-end time is critical whatever its budget. */
export const CRITICAL_SHARE = 0.5;
/** …and at least this share makes it worth watching (moderate). */
export const MODERATE_SHARE = 0.25;
/** Within budget but using at least this much of it is moderate (the waterfall's "near budget"). */
export const MODERATE_BUDGET_USE = 0.9;

export function severityOf(c: {
  actualMs: number;
  budgetMs: number | null;
  share: number;
  onCriticalPath: boolean;
}): Severity {
  const over = c.budgetMs !== null && c.actualMs > c.budgetMs;
  const overrun = over ? (c.actualMs - c.budgetMs!) / c.budgetMs! : 0;
  if ((over && c.onCriticalPath && overrun >= CRITICAL_OVERRUN) || c.share >= CRITICAL_SHARE) return "critical";
  if (over || c.share >= MODERATE_SHARE || (c.budgetMs !== null && c.actualMs >= MODERATE_BUDGET_USE * c.budgetMs))
    return "moderate";
  return "acceptable";
}

const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, moderate: 1, acceptable: 2 };

export type Bottleneck = {
  stage: string;
  component: string;
  actualMs: number;
  isLowerBound: boolean;
  budgetMs: number | null;
  /** The component's time over the stacked end-to-end time (its critical-path share when it is on it). */
  shareOfEndToEnd: number;
  severity: Severity;
  /** Positive when over its budget; null without a budget. */
  overBudgetMs: number | null;
  onCriticalPath: boolean;
};

export type Recommendation = {
  rank: number;
  name: string;
  component: string;
  savingMs: number;
  costPct: number;
  /** What the end-to-end (stacked) time gains: the saving limited by the component's time and its parallel siblings. */
  endToEndGainMs: number;
  /** Amdahl's overall speedup of the stacked time. */
  speedup: number;
  /** Gain per unit of cost: gain ÷ (1 + cost change); a cheaper option scores above its gain. */
  score: number;
};

export type ExperimentOutcome = {
  name: string;
  decision: string;
  decidedAt: string | null;
  decidedBy: string | null;
  note: string;
  verdict: string;
  judged: { label: string; beforeMs: number; afterMs: number } | null;
  costRelative: number | null;
};

export type AlertRuleInForce = {
  name: string;
  labels: Record<string, string>;
  for: string;
  state: "inactive" | "pending" | "firing";
};

export type Distribution = {
  stage: string;
  component: string;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  budgetP95: number | null;
};

export type BottleneckReport = {
  service: { slug: string; name: string };
  window: string;
  generatedAt: string;
  indicator: string;
  quantile: number;
  targetMs: number;
  summary: {
    primary: Bottleneck | null;
    stackedMs: number;
    stackedIsLowerBound: boolean;
    measuredEndToEndMs: number | null;
    /** Measured end to end when there is one, else stacked, against the target. */
    withinTarget: boolean | null;
    estimatedImprovementPercent: number | null;
    text: string;
  };
  pipeline: { stage: string; budgetMs: number | null; components: { name: string; budgetMs: number | null }[] }[];
  distribution: Distribution[];
  endToEnd: { p50: number | null; p95: number | null; p99: number | null };
  bottlenecks: Bottleneck[];
  unmeasured: string[];
  recommendations: Recommendation[];
  notApplicable: { name: string; reason: string }[];
  experiments: ExperimentOutcome[];
  alertRules: AlertRuleInForce[];
  rulesLoaded: boolean | null;
};

type Models = { p50: WaterfallModel; p95: WaterfallModel; p99: WaterfallModel };

export type ReportInput = {
  service: { slug: string; name: string };
  indicator: string;
  window: string;
  generatedAt: string;
  /** The waterfall at the budget's percentile, and at p50/p95/p99 for the distribution. */
  main: WaterfallModel;
  byPercentile: Models;
  catalog: readonly Optimization[];
  experiments: ExperimentOutcome[];
  alertRules: AlertRuleInForce[];
  rulesLoaded: boolean | null;
};

function findBottlenecks(model: WaterfallModel): { bottlenecks: Bottleneck[]; unmeasured: string[] } {
  const bottlenecks: Bottleneck[] = [];
  const unmeasured: string[] = [];
  const total = model.stackedMs;
  for (const stage of model.stages)
    for (const c of stage.components) {
      if (c.actualMs === null) {
        unmeasured.push(c.name);
        continue;
      }
      const share = total > 0 ? c.actualMs / total : 0;
      bottlenecks.push({
        stage: stage.name,
        component: c.name,
        actualMs: c.actualMs,
        isLowerBound: c.isLowerBound,
        budgetMs: c.budgetMs,
        shareOfEndToEnd: share,
        severity: severityOf({ actualMs: c.actualMs, budgetMs: c.budgetMs, share, onCriticalPath: c.onCriticalPath }),
        overBudgetMs: c.budgetMs === null ? null : c.actualMs - c.budgetMs,
        onCriticalPath: c.onCriticalPath,
      });
    }
  bottlenecks.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      Number(b.onCriticalPath) - Number(a.onCriticalPath) ||
      b.shareOfEndToEnd - a.shareOfEndToEnd,
  );
  return { bottlenecks, unmeasured };
}

/** The measured pipeline (components without data count as 0 ms), in the planner's shape. */
export function pipelineOf(model: WaterfallModel): Pipeline {
  return model.stages.map((s) => ({
    name: s.name,
    components: s.components.map((c) => ({ name: c.name, ms: c.actualMs ?? 0 })),
  }));
}

/**
 * Gain per unit of cost: gain ÷ (1 + cost change). The cost after the change is floored at 1 %
 * of today's, so an option that makes the part free (−100 %) scores 100 × its gain instead of
 * infinity, and an option that gains nothing scores 0 however much it saves (never NaN).
 */
export function recommendationScore(gainMs: number, costPct: number): number {
  if (!(gainMs > 0)) return gainMs < 0 ? gainMs : 0;
  return gainMs / Math.max(0.01, 1 + costPct / 100);
}

export function rankRecommendations(
  catalog: readonly Optimization[],
  model: WaterfallModel,
): { recommendations: Recommendation[]; notApplicable: { name: string; reason: string }[] } {
  const pipeline = pipelineOf(model);
  const { applicable, notApplicable } = resolveOptions(catalog, pipeline);
  const total = model.stackedMs;
  const ranked = applicable
    .map((option) => {
      const gain = combine([option], pipeline).savingMs;
      const speedup = total > 0 && gain < total ? total / (total - gain) : 1;
      return {
        name: option.name,
        component: option.component,
        savingMs: option.savingMs,
        costPct: option.costPct,
        endToEndGainMs: gain,
        speedup,
        score: recommendationScore(gain, option.costPct),
      };
    })
    .sort((a, b) => b.score - a.score || a.costPct - b.costPct || a.name.localeCompare(b.name));
  return { recommendations: ranked.map((r, i) => ({ ...r, rank: i + 1 })), notApplicable };
}

const round1 = (ms: number) => Math.round(ms * 10) / 10;

function summaryText(
  primary: Bottleneck | null,
  model: WaterfallModel,
  indicator: string,
  best: Recommendation | undefined,
): string {
  const key = `p${Math.round(model.quantile * 100)}`;
  if (!primary) return `No component has data in this window, so there is no bottleneck to name yet.`;
  const sentences = [
    `${primary.component} (${primary.stage}) is the primary bottleneck: ${round1(primary.actualMs)} ms at ${key}, ${(primary.shareOfEndToEnd * 100).toFixed(1)} % of the stacked ${indicator} time` +
      (primary.overBudgetMs !== null && primary.overBudgetMs > 0
        ? `, ${round1(primary.overBudgetMs)} ms over its ${round1(primary.budgetMs!)} ms budget.`
        : primary.budgetMs !== null
          ? `, within its ${round1(primary.budgetMs)} ms budget.`
          : "."),
  ];
  const e2e = model.measuredEndToEndMs ?? model.stackedMs;
  const label = model.measuredEndToEndMs !== null ? "measured end to end" : "stacked";
  sentences.push(
    `${indicator} ${key} is ${round1(e2e)} ms ${label} against a ${round1(model.targetMs)} ms target${e2e <= model.targetMs ? "" : " — over"}.`,
  );
  if (best && best.endToEndGainMs > 0)
    sentences.push(
      `The best-value change is ${best.name} (${round1(best.endToEndGainMs)} ms off end to end, cost ${best.costPct >= 0 ? "+" : "−"}${Math.abs(best.costPct)} %).`,
    );
  return sentences.join(" ");
}

export function buildReport(input: ReportInput): BottleneckReport {
  const model = input.main;
  const { bottlenecks, unmeasured } = findBottlenecks(model);
  const { recommendations, notApplicable } = rankRecommendations(input.catalog, model);
  const primary = bottlenecks[0] ?? null;
  const reference = model.measuredEndToEndMs ?? (model.stackedMs > 0 ? model.stackedMs : null);
  const best = recommendations[0];
  const distribution: Distribution[] = model.stages.flatMap((stage, s) =>
    stage.components.map((c, i) => {
      const at = (m: WaterfallModel) => m.stages[s]?.components[i]?.actualMs ?? null;
      return {
        stage: stage.name,
        component: c.name,
        p50: at(input.byPercentile.p50),
        p95: at(input.byPercentile.p95),
        p99: at(input.byPercentile.p99),
        budgetP95: input.byPercentile.p95.stages[s]?.components[i]?.budgetMs ?? null,
      };
    }),
  );
  return {
    service: input.service,
    window: input.window,
    generatedAt: input.generatedAt,
    indicator: input.indicator,
    quantile: model.quantile,
    targetMs: model.targetMs,
    summary: {
      primary,
      stackedMs: model.stackedMs,
      stackedIsLowerBound: model.stackedIsLowerBound,
      measuredEndToEndMs: model.measuredEndToEndMs,
      withinTarget: reference === null ? null : reference <= model.targetMs,
      estimatedImprovementPercent: best && model.stackedMs > 0 ? (best.endToEndGainMs / model.stackedMs) * 100 : null,
      text: summaryText(primary, model, input.indicator, best),
    },
    pipeline: model.stages.map((stage) => {
      const budgets = stage.components.map((c) => c.budgetMs).filter((b): b is number => b !== null);
      return {
        stage: stage.name,
        budgetMs: budgets.length ? Math.max(...budgets) : null,
        components: stage.components.map((c) => ({ name: c.name, budgetMs: c.budgetMs })),
      };
    }),
    distribution,
    endToEnd: {
      p50: input.byPercentile.p50.measuredEndToEndMs,
      p95: input.byPercentile.p95.measuredEndToEndMs,
      p99: input.byPercentile.p99.measuredEndToEndMs,
    },
    bottlenecks,
    unmeasured,
    recommendations,
    notApplicable,
    experiments: input.experiments,
    alertRules: input.alertRules,
    rulesLoaded: input.rulesLoaded,
  };
}
