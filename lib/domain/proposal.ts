import { PERCENTILES, percentileKeyOf, QUANTILE_OF, type PercentileBudgets, type PercentileKey } from "./budget";
import { formatMs, plural } from "./format";
import { histogramQuantile, type Bucket } from "./histogram";
import { predictEndToEnd, type Change, type StageHistograms } from "./whatif";

// Budgets proposed from what each component measures. Every component keeps its measured
// percentile; the target's slack is shared out over the stages in proportion to the spread
// (p99 − p50) of each stage's slowest component: a stage whose latency varies most is the one most
// likely to cross a tight budget on a bad minute, so headroom there buys the most. Parallel
// components of a stage get the same headroom, so the stage's critical path stays the slowest.
// The result is checked with the what-if convolution: every component shifted up to its budget,
// the predicted end-to-end percentile must be within the target too. When the measured pipeline
// does not fit, the budgets are the measurements, and the note says by how much it is over and
// which single cuts would close the gap (each checked with the same convolution).

export const PROPOSAL_RULE =
  "Each component keeps its measured percentile; the target's slack goes to the stages in proportion to the spread (p99 − p50) of each stage's slowest component, where headroom buys the most; parallel components of a stage get the same headroom.";

export type Measured = Record<PercentileKey, number | null>;

export type ComponentProposal = {
  name: string;
  measuredMs: Measured;
  /** A measured percentile fell in the +Inf bucket: it is at least the value shown. */
  isLowerBound: boolean;
  budgetMs: PercentileBudgets;
  /** Headroom given on top of the measurement, in ms. */
  headroomMs: number;
};

export type Cut = { stage: string; component: string; cutMs: number; predictedEndToEndMs: number | null };

export type Proposal = {
  quantile: number;
  targetMs: number;
  stages: { name: string; components: ComponentProposal[] }[];
  /** Σ over stages of the slowest component's measured pXX. */
  measuredStackedMs: number;
  /** Σ over stages of the slowest proposed pXX budget. */
  stackedMs: number;
  slackMs: number;
  /** End-to-end pXX predicted with every component at its budget (what-if convolution), ± bound. */
  predictedEndToEndMs: number | null;
  predictedErrorBoundMs: number | null;
  fits: boolean;
  rule: string;
  note: string;
  cuts: Cut[];
  /** Components without data: no budget proposed. */
  missing: string[];
  /** The share of the slack given out: below 1 when the convolution needed the rest kept back. */
  headroomScale: number;
};

const MAX_BUDGET_MS = 3_600_000;
const up = (ms: number) => Math.ceil(ms * 10 - 1e-9) / 10;
const down = (ms: number) => Math.floor(ms * 10 + 1e-9) / 10;

function measure(buckets: readonly Bucket[] | null): { measured: Measured; isLowerBound: boolean } {
  const measured: Measured = { p50: null, p95: null, p99: null };
  let isLowerBound = false;
  if (!buckets) return { measured, isLowerBound };
  for (const key of PERCENTILES) {
    const estimate = histogramQuantile(QUANTILE_OF[key], buckets);
    if (estimate.kind === "none") continue;
    measured[key] = estimate.value * 1000;
    if (estimate.kind === "atLeast") isLowerBound = true;
  }
  return { measured, isLowerBound };
}

/** Budgets at or above the measurement, at most `headroom` above it, on a 0.1 ms grid, p50 ≤ p95 ≤ p99. */
function budgetsOf(measured: Measured, headroom: number): PercentileBudgets {
  const budgets: PercentileBudgets = { p50: null, p95: null, p99: null };
  let floor = 0;
  for (const key of PERCENTILES) {
    const ms = measured[key];
    if (ms === null) continue;
    const base = up(ms);
    const value = Math.min(MAX_BUDGET_MS, Math.max(floor, base + down(Math.max(0, headroom - (base - ms)))));
    budgets[key] = value > 0 ? value : 0.1;
    floor = budgets[key]!;
  }
  return budgets;
}

export function proposeBudgets(stages: StageHistograms, options: { quantile: number; targetMs: number }): Proposal {
  const key = percentileKeyOf(options.quantile) ?? "p95";
  const measuredStages = stages.map((stage) => ({
    name: stage.name,
    components: stage.components.map((c) => ({ name: c.name, ...measure(c.buckets) })),
  }));
  const missing = measuredStages.flatMap((s) =>
    s.components.filter((c) => c.measured[key] === null).map((c) => c.name),
  );
  const critical = measuredStages.map((stage) => {
    const measured = stage.components.filter((c) => c.measured[key] !== null);
    const sorted = [...measured].sort((a, b) => b.measured[key]! - a.measured[key]!);
    return { slowest: sorted[0] ?? null, second: sorted[1] ?? null };
  });
  const measuredStackedMs = critical.reduce((sum, c) => sum + (c.slowest?.measured[key] ?? 0), 0);
  const slackMs = options.targetMs - measuredStackedMs;

  // Headroom per stage: proportional to the slowest component's spread, else to its pXX.
  const spread = critical.map((c) =>
    c.slowest ? Math.max(0, (c.slowest.measured.p99 ?? 0) - (c.slowest.measured.p50 ?? 0)) : 0,
  );
  const weights = spread.some((w) => w > 0) ? spread : critical.map((c) => c.slowest?.measured[key] ?? 0);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const headroom = weights.map((w) => (slackMs > 0 && totalWeight > 0 ? (slackMs * w) / totalWeight : 0));

  const build = (scale: number) => {
    const proposed = measuredStages.map((stage, s) => ({
      name: stage.name,
      components: stage.components.map((c): ComponentProposal => ({
        name: c.name,
        measuredMs: c.measured,
        isLowerBound: c.isLowerBound,
        budgetMs: budgetsOf(c.measured, headroom[s]! * scale),
        headroomMs: headroom[s]! * scale,
      })),
    }));
    // Every component at its budget: its distribution shifted up by the headroom it was given.
    const atBudget: Change[] = proposed.flatMap((stage, s) =>
      stage.components.flatMap((c, i) =>
        c.headroomMs > 0 ? [{ stage: s, component: i, label: c.name, kind: "shift" as const, ms: c.headroomMs }] : [],
      ),
    );
    return { proposed, prediction: predictEndToEnd(stages, { ...options, changes: atBudget }) };
  };
  // Stacking percentiles can understate the percentile of the sum (a median of a right-skewed sum
  // is above the sum of medians): when the convolution says the pipeline at its budgets would miss
  // the target, the headroom is scaled down until it does not (bisection, to 1/1024).
  let scale = 1;
  let { proposed, prediction } = build(1);
  const over = (p: typeof prediction) => p !== null && p.quantileMs > options.targetMs;
  if (slackMs > 0 && over(prediction)) {
    let [low, high] = [0, 1];
    for (let i = 0; i < 10; i++) {
      const mid = (low + high) / 2;
      if (over(build(mid).prediction)) high = mid;
      else low = mid;
    }
    scale = low;
    ({ proposed, prediction } = build(scale));
  }
  const stackedMs = proposed.reduce(
    (sum, stage) => sum + Math.max(0, ...stage.components.map((c) => c.budgetMs[key] ?? 0)),
    0,
  );
  const predictedEndToEndMs = prediction?.quantileMs ?? null;
  const fitsStacked = stackedMs <= options.targetMs + 1e-9;
  const fitsPredicted = predictedEndToEndMs === null || predictedEndToEndMs <= options.targetMs;
  const fits = slackMs >= 0 && fitsStacked && fitsPredicted && measuredStackedMs > 0;

  const cuts = slackMs < 0 ? cutsToFit(stages, critical, -slackMs, options) : [];
  return {
    quantile: options.quantile,
    targetMs: options.targetMs,
    stages: proposed,
    measuredStackedMs,
    stackedMs,
    slackMs,
    predictedEndToEndMs,
    predictedErrorBoundMs: prediction?.errorBoundMs ?? null,
    fits,
    rule: PROPOSAL_RULE,
    note: noteOf({
      key,
      slackMs,
      measuredStackedMs,
      predictedEndToEndMs,
      fits,
      cuts,
      missing,
      targetMs: options.targetMs,
      scale,
    }),
    headroomScale: scale,
    cuts,
    missing,
  };
}

/**
 * Single cuts that would close a deficit: a component on a stage's critical path can gain at most
 * its lead over the stage's next-slowest component. Each cut is checked with the convolution.
 */
function cutsToFit(
  stages: StageHistograms,
  critical: { slowest: { name: string; measured: Measured } | null; second: { measured: Measured } | null }[],
  deficitMs: number,
  options: { quantile: number; targetMs: number },
): Cut[] {
  const key = percentileKeyOf(options.quantile) ?? "p95";
  const cuts: Cut[] = [];
  critical.forEach((c, s) => {
    if (!c.slowest) return;
    const gainable = c.slowest.measured[key]! - (c.second?.measured[key] ?? 0);
    if (gainable < deficitMs) return;
    const component = stages[s]!.components.findIndex((x) => x.name === c.slowest!.name);
    const cutMs = up(deficitMs);
    const prediction = predictEndToEnd(stages, {
      ...options,
      changes: [{ stage: s, component, label: c.slowest.name, kind: "shift", ms: -cutMs }],
    });
    cuts.push({
      stage: stages[s]!.name,
      component: c.slowest.name,
      cutMs,
      predictedEndToEndMs: prediction?.quantileMs ?? null,
    });
  });
  // The cut that leaves the best predicted end to end first: it is the one the convolution likes.
  return cuts.sort((a, b) => (a.predictedEndToEndMs ?? Infinity) - (b.predictedEndToEndMs ?? Infinity)).slice(0, 3);
}

function noteOf(p: {
  key: PercentileKey;
  slackMs: number;
  measuredStackedMs: number;
  predictedEndToEndMs: number | null;
  fits: boolean;
  cuts: Cut[];
  missing: string[];
  targetMs: number;
  scale: number;
}): string {
  const parts: string[] = [];
  if (p.missing.length)
    parts.push(`No budget for ${plural(p.missing.length, "component")} without data: ${p.missing.join(", ")}.`);
  if (p.measuredStackedMs === 0) return [...parts, "Nothing was measured: no budget can be proposed."].join(" ");
  if (p.slackMs >= 0) {
    parts.push(
      p.scale < 1
        ? `The measured ${p.key}s stack to ${formatMs(round(p.measuredStackedMs))}, ${formatMs(round(p.slackMs))} under the ${formatMs(p.targetMs)} target; ${Math.round(p.scale * 100)} % of that slack is shared out as headroom, because with all of it the predicted end-to-end ${p.key} would miss the target (the ${p.key} of a sum is not the sum of ${p.key}s).`
        : `The measured ${p.key}s stack to ${formatMs(round(p.measuredStackedMs))}, ${formatMs(round(p.slackMs))} under the ${formatMs(p.targetMs)} target; that slack is shared out as headroom.`,
    );
    if (p.predictedEndToEndMs !== null)
      parts.push(
        p.fits
          ? `With every component at its budget the predicted end-to-end ${p.key} is ${formatMs(round(p.predictedEndToEndMs))}.`
          : `With every component at its budget the predicted end-to-end ${p.key} would be ${formatMs(round(p.predictedEndToEndMs))}, over the target: tighten the headroom.`,
      );
    return parts.join(" ");
  }
  parts.push(
    `The measured ${p.key}s stack to ${formatMs(round(p.measuredStackedMs))}: ${formatMs(round(-p.slackMs))} over the ${formatMs(p.targetMs)} target, so the budgets are the measurements.`,
  );
  if (p.predictedEndToEndMs !== null && p.predictedEndToEndMs <= p.targetMs)
    parts.push(
      `Independent components would still reach an end-to-end ${p.key} of ${formatMs(round(p.predictedEndToEndMs))} (stacking percentiles overstates a sum), but stacked budgets cannot fit.`,
    );
  if (p.cuts.length)
    parts.push(
      `Cuts that close it alone: ${p.cuts
        .map(
          (c) =>
            `${c.component} −${formatMs(c.cutMs)}${c.predictedEndToEndMs !== null ? ` (predicted end to end ${formatMs(round(c.predictedEndToEndMs))})` : ""}`,
        )
        .join("; ")}.`,
    );
  else parts.push("No single component can close it alone: cut several, or raise the target.");
  return parts.join(" ");
}

const round = (ms: number) => Math.round(ms * 10) / 10;
