import { LatencySamples } from "./stats/latency-samples";
import { emptyMoments, mergeMoments, type Moments } from "./stats/mean";
import { emptyRatio, mergeRatios, type RatioAccumulator } from "./stats/ratio";

// An A/B experiment's design and the bounded, mergeable results kept per variant.

export const INDICATORS = ["ttftMs", "itlMs", "e2eMs"] as const;
export type Indicator = (typeof INDICATORS)[number];
export const INDICATOR_LABEL: Record<Indicator, string> = {
  ttftMs: "TTFT",
  itlMs: "inter-token latency",
  e2eMs: "end-to-end",
};

export type ExperimentDesign = {
  /** The first is the control. */
  variants: { name: string; weight: number }[];
  /** Latency indicators judged; the first decides the verdict. */
  indicators: Indicator[];
  judgedPercentile: number;
  /** Largest allowed drop of the mean quality score, e.g. 0.01; null: no guardrail. */
  qualityMaxDrop: number | null;
};

export type VariantAccumulator = {
  requests: number;
  latency: Record<Indicator, LatencySamples>;
  /** Σ cost (USD) over Σ tokens. */
  cost: RatioAccumulator;
  quality: Moments;
};

export function newAccumulator(): VariantAccumulator {
  return {
    requests: 0,
    latency: Object.fromEntries(INDICATORS.map((i) => [i, new LatencySamples()])) as Record<Indicator, LatencySamples>,
    cost: emptyRatio(),
    quality: emptyMoments(),
  };
}

/** Adds `added` into `into`: uploads and imports add up. */
export function mergeAccumulators(into: VariantAccumulator, added: VariantAccumulator): void {
  into.requests += added.requests;
  for (const i of INDICATORS) into.latency[i].merge(added.latency[i]);
  into.cost = mergeRatios(into.cost, added.cost);
  into.quality = mergeMoments(into.quality, added.quality);
}
