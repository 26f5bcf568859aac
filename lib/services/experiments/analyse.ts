import {
  quantileDifference,
  quantileWithCI,
  type Difference,
  type QuantileEstimate,
} from "@/lib/domain/stats/quantile-ci";
import { ratioEstimate, type RatioEstimate } from "@/lib/domain/stats/ratio";
import { sampleRatioMismatch, type SrmResult } from "@/lib/domain/stats/srm";
import { verdictOf, type Verdict } from "@/lib/domain/stats/verdict";
import type { ExperimentRow } from "@/lib/db/experiments";
import { INDICATOR_LABEL, type Indicator } from "@/lib/schemas/experiment";
import type { VariantAccumulator } from "./ingest";
import { newAccumulator } from "./ingest";

// The analysis a PM reads: per-variant percentiles with intervals, differences against the
// control, sample-ratio mismatch first, cost per 1k tokens, the quality guardrail, a verdict.

const PERCENTILES = [0.5, 0.95, 0.99] as const;
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
  quality: { mean: number; n: number } | null;
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
  cost: { variant: string; relative: number; isSignificant: boolean } | null;
  guardrail: { passed: boolean; description: string } | null;
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
    percentiles: PERCENTILES.map((p) => quantileWithCI(ranks, p)),
    cdf,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} points`;

export function analyse(experiment: ExperimentRow, data: Map<string, VariantAccumulator>): Analysis {
  const variants: VariantSummary[] = experiment.variants.map(({ name, weight }) => {
    const acc = data.get(name) ?? newAccumulator();
    return {
      name,
      weight,
      requests: acc.requests,
      indicators: Object.fromEntries(experiment.indicators.map((i) => [i, summarise(acc, i)]).filter(([, s]) => s)),
      costPer1kTokens: ratioEstimate(acc.cost, 1000),
      quality: acc.qualityCount ? { mean: acc.qualitySum / acc.qualityCount, n: acc.qualityCount } : null,
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

  const comparisons: Comparison[] = [];
  for (const treatment of treatments) {
    for (const indicator of experiment.indicators) {
      PERCENTILES.forEach((p, i) => {
        const c = control!.indicators[indicator]?.percentiles[i];
        const t = treatment.indicators[indicator]?.percentiles[i];
        if (c?.ok && t?.ok)
          comparisons.push({
            variant: treatment.name,
            indicator,
            p,
            difference: quantileDifference(c, t),
            reason: null,
          });
        else
          comparisons.push({
            variant: treatment.name,
            indicator,
            p,
            difference: null,
            reason: (c && !c.ok ? c.reason : t && !t.ok ? t.reason : "no samples") ?? null,
          });
      });
    }
  }

  const first = treatments[0];
  const judged = first
    ? comparisons.find(
        (c) =>
          c.variant === first.name && c.indicator === experiment.indicators[0] && c.p === experiment.judgedPercentile,
      )
    : undefined;
  const costC = control?.costPer1kTokens;
  const costT = first?.costPer1kTokens;
  const cost =
    costC && costT && first
      ? {
          variant: first.name,
          relative: costT.value / costC.value - 1,
          isSignificant: costT.upper < costC.lower || costT.lower > costC.upper,
        }
      : null;
  const guardrail =
    experiment.qualityMaxDrop !== null && control?.quality && first?.quality
      ? (() => {
          const drop = control.quality.mean - first.quality.mean;
          return {
            passed: drop <= experiment.qualityMaxDrop,
            description: `quality ${drop > 0 ? "fell" : "rose"} ${pct(Math.abs(drop))}, at most ${pct(experiment.qualityMaxDrop)} of drop allowed`,
          };
        })()
      : null;
  const label = `${INDICATOR_LABEL[experiment.indicators[0]!]} p${Math.round(experiment.judgedPercentile * 100)}`;
  const verdict = verdictOf({
    srmMismatch: srm?.isMismatch ?? false,
    latency: judged?.difference
      ? {
          percentile: `p${Math.round(experiment.judgedPercentile * 100)}`,
          relative: judged.difference.relative,
          isSignificant: judged.difference.isSignificant,
        }
      : null,
    cost,
    guardrail,
  });
  return {
    variants,
    srm,
    comparisons,
    cost,
    guardrail,
    verdict: { ...verdict, sentence: verdict.sentence.replace(/ at p(\d+)/, ` at ${label}`) },
  };
}
