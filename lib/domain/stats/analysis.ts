import {
  INDICATOR_LABEL,
  newAccumulator,
  type ExperimentDesign,
  type Indicator,
  type VariantAccumulator,
} from "../experiments";
import { compareEstimates, quantileDifference, type Difference } from "./difference";
import { evaluateGuardrail, type Guardrail } from "./guardrail";
import { meanEstimate, type MeanEstimate } from "./mean";
import { quantileWithCI, type QuantileEstimate } from "./quantile-ci";
import { ratioEstimate, type RatioEstimate } from "./ratio";
import { sampleRatioMismatch, type SrmResult } from "./srm";
import { verdictOf, type Verdict } from "./verdict";

// The analysis a PM reads: per-variant percentiles with intervals, differences against the
// control, sample-ratio mismatch first, cost per 1k tokens tested as a difference, the quality
// guardrail judged by its interval, and a verdict. Pure: accumulated results in, analysis out.

export const ANALYSED_PERCENTILES = [0.5, 0.95, 0.99] as const;
const CDF_POINTS = 60;

export type IndicatorSummary = {
  n: number;
  mean: number | null;
  isExact: boolean;
  percentiles: QuantileEstimate[];
  cdf: { ms: number; share: number }[];
};

export type VariantSummary = {
  name: string;
  weight: number;
  requests: number;
  indicators: Partial<Record<Indicator, IndicatorSummary>>;
  costPer1kTokens: RatioEstimate;
  quality: MeanEstimate | null;
};

export type Comparison = {
  variant: string;
  indicator: Indicator;
  p: number;
  difference: Difference | null;
  reason: string | null;
};

export type Analysis = {
  variants: VariantSummary[];
  srm: SrmResult | null;
  comparisons: Comparison[];
  /** The first treatment's cost per 1k tokens against the control's. */
  cost: (Difference & { variant: string }) | null;
  guardrail: (Guardrail & { variant: string }) | null;
  verdict: Verdict;
};

function summarise(acc: VariantAccumulator, indicator: Indicator): IndicatorSummary | undefined {
  const samples = acc.latency[indicator];
  if (samples.count === 0) return undefined;
  const ranks = samples.ranks();
  const cdf = Array.from({ length: CDF_POINTS + 1 }, (_, i) => {
    const share = i / CDF_POINTS;
    const rank = Math.min(ranks.n, Math.max(1, Math.ceil(share * ranks.n)));
    return { ms: ranks.valueAtRank(rank), share };
  });
  return {
    n: samples.count,
    mean: samples.mean,
    isExact: samples.isExact,
    percentiles: ANALYSED_PERCENTILES.map((p) => quantileWithCI(ranks, p)),
    cdf,
  };
}

function compareVariants(design: ExperimentDesign, control: VariantSummary, treatment: VariantSummary): Comparison[] {
  return design.indicators.flatMap((indicator) =>
    ANALYSED_PERCENTILES.map((p, i): Comparison => {
      const c = control.indicators[indicator]?.percentiles[i];
      const t = treatment.indicators[indicator]?.percentiles[i];
      if (c?.ok && t?.ok)
        return { variant: treatment.name, indicator, p, difference: quantileDifference(c, t), reason: null };
      const reason =
        c && !c.ok ? c.reason : t && !t.ok ? t.reason.replace("this variant", treatment.name) : "no samples";
      return { variant: treatment.name, indicator, p, difference: null, reason };
    }),
  );
}

function compareCost(control: VariantSummary, treatment: VariantSummary): Analysis["cost"] {
  const [c, t] = [control.costPer1kTokens, treatment.costPer1kTokens];
  if (!c || !t || c.standardError === null || t.standardError === null) return null;
  return {
    variant: treatment.name,
    ...compareEstimates(
      { value: c.value, standardError: c.standardError },
      { value: t.value, standardError: t.standardError },
    ),
  };
}

export function analyse(design: ExperimentDesign, data: ReadonlyMap<string, VariantAccumulator>): Analysis {
  const variants: VariantSummary[] = design.variants.map(({ name, weight }) => {
    const acc = data.get(name) ?? newAccumulator();
    return {
      name,
      weight,
      requests: acc.requests,
      indicators: Object.fromEntries(design.indicators.map((i) => [i, summarise(acc, i)]).filter(([, s]) => s)),
      costPer1kTokens: ratioEstimate(acc.cost, 1000),
      quality: meanEstimate(acc.quality),
    };
  });
  const [control, ...treatments] = variants;
  const total = variants.reduce((n, v) => n + v.requests, 0);
  const srm =
    total > 0
      ? sampleRatioMismatch(
          variants.map((v) => v.requests),
          variants.map((v) => v.weight),
        )
      : null;
  const comparisons = treatments.flatMap((treatment) => compareVariants(design, control!, treatment));

  const first = treatments[0];
  const judgedIndicator = design.indicators[0]!;
  const judged = comparisons.find(
    (c) => c.variant === first?.name && c.indicator === judgedIndicator && c.p === design.judgedPercentile,
  );
  const cost = first ? compareCost(control!, first) : null;
  const guardrail =
    design.qualityMaxDrop !== null && control?.quality && first?.quality
      ? { variant: first.name, ...evaluateGuardrail(control.quality, first.quality, design.qualityMaxDrop) }
      : null;
  const verdict = verdictOf({
    srmMismatch: srm?.isMismatch ?? false,
    label: `${INDICATOR_LABEL[judgedIndicator]} p${Math.round(design.judgedPercentile * 100)}`,
    latency: judged?.difference ?? null,
    latencyReason: judged?.reason ?? (first ? null : "the experiment has no treatment"),
    cost,
    guardrail,
  });
  return { variants, srm, comparisons, cost, guardrail, verdict };
}
