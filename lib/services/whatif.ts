import "server-only";
import type { Bucket } from "@/lib/domain/histogram";
import { attainment, goodAndTotal } from "@/lib/domain/slo";
import { buildWaterfall, componentKey, END_TO_END_KEY } from "@/lib/domain/waterfall";
import {
  describeChange,
  locateComponent,
  parseChange,
  type BucketBounds,
  type Change,
  type Prediction,
  type StageHistograms,
} from "@/lib/domain/whatif";
import { AppError } from "@/lib/errors";
import { fetchBucketRates } from "@/lib/prometheus/buckets";
import { whatIfQuerySchema } from "@/lib/schemas/insights";
import { parseInput } from "@/lib/schemas/parse";
import type { LiveViewArgs } from "./runtime";
import { getBudgetForLiveView } from "./budgets";
import { predictInWorker } from "./compute/pool";
import { sourcesOf } from "./waterfall";

// What-if: the end-to-end percentile predicted from the live component histograms, next to the
// measured one, and again after the changes asked for ("RAG retrieval:-50", "RAG retrieval:×0.7").

export const WHATIF_METHOD = "convolution";
export const WHATIF_ASSUMPTIONS =
  "Components are independent; a parallel stage lasts as long as its slowest component; stages add up; each histogram is uniform inside a bucket.";

export type WhatIfView = {
  slug: string;
  window: string;
  quantile: number;
  at: number;
  prometheus: "up" | "down" | "unconfigured";
  error: string | null;
  targetMs: number;
  /** After the changes (without changes: the baseline prediction). */
  predictedEndToEndMs: number | null;
  baselinePredictedMs: number | null;
  measuredEndToEndMs: number | null;
  measuredIsLowerBound: boolean;
  stackedMs: number | null;
  /** Measured − predicted (no changes): how far real requests are from independent components. */
  correlationGapMs: number | null;
  /** The measured percentile moved by the predicted effect of the changes. */
  adjustedEndToEndMs: number | null;
  changes: { component: string; stage: string; change: string }[];
  method: typeof WHATIF_METHOD;
  assumptions: string;
  errorBoundMs: number | null;
  /**
   * What the buckets allow: the end-to-end percentile with every bucket's mass at its lower edge
   * and at its upper edge (upperMs null: unbounded, the +Inf bucket), before and after the changes.
   * The uniform reading (predictedEndToEndMs ± errorBoundMs) lies inside.
   */
  bucketBounds: { baseline: BucketBounds | null; predicted: BucketBounds | null };
  isLowerBound: boolean;
  /** The share of requests within the target: predicted before and after the changes, and measured. */
  attainment: { baseline: number | null; predicted: number | null; measured: number | null; errorBound: number | null };
  cdf: { baseline: [number, number][]; predicted: [number, number][]; measured: [number, number][] };
  missing: string[];
};

/** The measured share at or under `ms`, counted as the SLO page counts it (interpolated inside a bucket). */
function shareAtOrBelow(buckets: readonly Bucket[], ms: number): number | null {
  return attainment(goodAndTotal(buckets, ms / 1000));
}

function measuredCdf(buckets: readonly Bucket[] | undefined, upToMs: number): [number, number][] {
  if (!buckets) return [];
  const points: [number, number][] = [];
  for (let i = 0; i <= 100; i++) {
    const ms = (upToMs * i) / 100;
    const share = shareAtOrBelow(buckets, ms);
    if (share !== null) points.push([ms, share]);
  }
  return points;
}

export async function getWhatIf({ db, prom, slug, query, now = Date.now() / 1000 }: LiveViewArgs): Promise<WhatIfView> {
  const parsed = parseInput(whatIfQuerySchema, query, "The query");
  const budget = await getBudgetForLiveView({ db, slug });
  const fields: Record<string, string> = {};
  const changes: Change[] = [];
  parsed.change.forEach((text, i) => {
    const change = parseChange(text);
    if ("error" in change) return void (fields[`change.${i}`] = change.error);
    const where = locateComponent(budget.stages, change.target);
    if ("error" in where) return void (fields[`change.${i}`] = where.error);
    if (changes.some((c) => c.stage === where.stage && c.component === where.component))
      return void (fields[`change.${i}`] = `${where.label} is changed twice: give one change per component.`);
    changes.push({ ...where, ...change } as Change);
  });
  if (Object.keys(fields).length)
    throw new AppError(
      "VALIDATION_FAILED",
      `The query has ${Object.keys(fields).length} change(s) it cannot apply.`,
      fields,
    );

  const view: WhatIfView = {
    slug,
    window: parsed.window,
    quantile: parsed.quantile,
    at: Math.floor(now),
    prometheus: prom ? "up" : "unconfigured",
    error: prom ? null : "Prometheus is not configured: set PROMETHEUS_URL to predict from live histograms.",
    targetMs: budget.targetMs,
    predictedEndToEndMs: null,
    baselinePredictedMs: null,
    measuredEndToEndMs: null,
    measuredIsLowerBound: false,
    stackedMs: null,
    correlationGapMs: null,
    adjustedEndToEndMs: null,
    changes: changes.map((c) => ({
      component: c.label,
      stage: budget.stages[c.stage]!.name,
      change: describeChange(c),
    })),
    method: WHATIF_METHOD,
    assumptions: WHATIF_ASSUMPTIONS,
    errorBoundMs: null,
    bucketBounds: { baseline: null, predicted: null },
    isLowerBound: false,
    attainment: { baseline: null, predicted: null, measured: null, errorBound: null },
    cdf: { baseline: [], predicted: [], measured: [] },
    missing: [],
  };
  if (!prom) return view;
  view.at = prom.alignTime(now);
  const sources = sourcesOf(budget);
  if (sources.length === 0) return { ...view, missing: budget.stages.flatMap((s) => s.components.map((c) => c.name)) };
  const result = await fetchBucketRates(prom, sources, { window: parsed.window, time: view.at });
  if (result.status === "error")
    return { ...view, prometheus: "down", error: `Prometheus query failed: ${result.error} (${result.errorType})` };
  const groups = result.groups;
  const stages: StageHistograms = budget.stages.map((stage, s) => ({
    name: stage.name,
    components: stage.components.map((c, i) => ({ name: c.name, buckets: groups.get(componentKey(s, i)) ?? null })),
  }));
  const options = { quantile: parsed.quantile, targetMs: budget.targetMs, bucketBounds: true };
  // Off the event loop, within a time limit (503 when it is overrun): see ./compute/pool.ts.
  const [baseline = null, afterChanges = null] = await predictInWorker(
    stages,
    changes.length ? [options, { ...options, changes }] : [options],
  );
  const predicted: Prediction | null = changes.length ? afterChanges : baseline;
  const model = buildWaterfall(budget, parsed.quantile, groups);
  view.stackedMs = model.stagesWithoutData.length === budget.stages.length ? null : model.stackedMs;
  view.measuredEndToEndMs = model.measuredEndToEndMs;
  view.measuredIsLowerBound = model.measuredEndToEndIsLowerBound;
  const e2e = groups.get(END_TO_END_KEY);
  view.attainment.measured = e2e ? shareAtOrBelow(e2e, budget.targetMs) : null;
  if (baseline && predicted) {
    view.baselinePredictedMs = baseline.quantileMs;
    view.predictedEndToEndMs = predicted.quantileMs;
    view.errorBoundMs = Math.max(baseline.errorBoundMs, predicted.errorBoundMs);
    view.isLowerBound = baseline.isLowerBound || predicted.isLowerBound;
    view.bucketBounds = { baseline: baseline.bucketBounds, predicted: predicted.bucketBounds };
    view.missing = baseline.missing;
    view.attainment.baseline = baseline.attainment;
    view.attainment.predicted = predicted.attainment;
    view.attainment.errorBound = Math.max(baseline.attainmentError, predicted.attainmentError);
    view.cdf.baseline = baseline.cdf;
    view.cdf.predicted = changes.length ? predicted.cdf : [];
    if (view.measuredEndToEndMs !== null) {
      view.correlationGapMs = view.measuredEndToEndMs - baseline.quantileMs;
      view.adjustedEndToEndMs = Math.max(0, view.measuredEndToEndMs + predicted.quantileMs - baseline.quantileMs);
    }
    const upTo = baseline.cdf[baseline.cdf.length - 1]?.[0] ?? budget.targetMs * 2;
    view.cdf.measured = measuredCdf(e2e, upTo);
  } else view.missing = stages.flatMap((s) => s.components.map((c) => c.name));
  return view;
}
