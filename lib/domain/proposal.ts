import { PERCENTILES, percentileKeyOf, QUANTILE_OF, type PercentileBudgets, type PercentileKey } from "./budget";
import { formatMs, plural } from "./format";
import { histogramQuantile, type Bucket } from "./histogram";
import { normaliseBuckets } from "./histogram";
import { predictEndToEnd, type BucketBounds, type Change, type StageHistograms } from "./whatif";

// Budgets proposed from what each component measures. Every component keeps its measured
// percentile; the target's slack is shared out over the stages in proportion to the spread
// (p99 − p50) of each stage's slowest component: a stage whose latency varies most is the one most
// likely to cross a tight budget on a bad minute, so headroom there buys the most. Parallel
// components of a stage get the same headroom, so the stage's critical path stays the slowest.
// The result is checked with the what-if convolution: every component shifted up to its budget,
// the predicted end-to-end percentile must be within the target too. When the measured pipeline
// does not fit, the budgets are the measurements, and the note says by how much it is over and
// which single cuts would close the gap (each checked with the same convolution). The measured
// pipeline "does not fit" when its stacked percentiles are over the target OR when the predicted
// end-to-end percentile is (a parallel stage is the max of its components: two components each at
// 50 ms at p50 make a stage whose p50 is 70.7 ms), and cuts are looked for in both cases.
//
// The buckets cannot say where inside a bucket requests fall, so the verdict reads the interval
// they allow for the pipeline as measured (every bucket's mass at its lower edge … at its upper
// edge): `verdict` is "fits" when even the upper end is within the target (and the budgets fit),
// "does-not-fit" when even the lower end is over it (or the stacked percentiles are), "undecided"
// otherwise. `fits` keeps its meaning for the contract: the
// proposal fits under Prometheus's own reading (uniform inside a bucket).
//
// The prediction itself is an interval (quantileMs ± errorBoundMs): it is called over the target
// only when its lower end is, and within only when its upper end is. A target inside it is
// "undecided", said so with the prediction's resolution, and no cut is sized from its middle: a
// cut's deficit is what the lower end is over, and a cut counts only when the prediction after it
// is within the target at its upper end.

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

export type Verdict = "fits" | "does-not-fit" | "undecided";

/** A bucket that holds a component's measured percentile: a bound inside it would sharpen the verdict. */
export type DecidingBucket = { stage: string; component: string; fromMs: number; toMs: number | null };

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
  /** The predicted end-to-end pXX of the pipeline as measured, with every bucket's mass at its lower / upper edge (upper null: unbounded). */
  bucketBounds: BucketBounds | null;
  /** Under Prometheus's reading of the buckets (uniform inside each): the stacked budgets and the predicted pXX fit. */
  fits: boolean;
  /** What the buckets allow: "undecided" when the target lies between the lower-edge and upper-edge readings. */
  verdict: Verdict;
  /** When undecided: the buckets holding the components' measured pXX, widest first (at most 3). */
  decidingBuckets: DecidingBucket[];
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
  // Within the target only when the prediction vouches for it (its upper end); over it for sure
  // when even its lower end is.
  const over = (p: typeof prediction) => p !== null && p.quantileMs + p.errorBoundMs > options.targetMs;
  const surelyOver = (p: typeof prediction) => p !== null && p.quantileMs - p.errorBoundMs > options.targetMs;
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
  const fitsPredicted = !over(prediction);
  const fits = slackMs >= 0 && fitsStacked && fitsPredicted && measuredStackedMs > 0;

  // Over the target as measured: by the stacked percentiles, or by the predicted end to end with no
  // headroom left (all of it withheld, or none to give).
  const noHeadroom = slackMs <= 0 || scale === 0;
  const predictedOver = noHeadroom && surelyOver(prediction);
  // The target lies inside the prediction's own interval: it can say neither over nor within.
  const unresolved = noHeadroom && over(prediction) && !predictedOver;
  const cuts =
    measuredStackedMs > 0 && (slackMs < 0 || predictedOver)
      ? cutsToFit(
          stages,
          critical,
          Math.max(0, -slackMs),
          prediction ? { ms: prediction.quantileMs, errorBoundMs: prediction.errorBoundMs } : null,
          options,
        )
      : [];
  // What the buckets allow for the pipeline as measured: feasibility is the measurements' question.
  const bucketBounds = predictEndToEnd(stages, { ...options, bucketBounds: true })?.bucketBounds ?? null;
  const certainlyOver = bucketBounds !== null && bucketBounds.lowerMs > options.targetMs;
  const certainlyWithin =
    bucketBounds !== null && bucketBounds.upperMs !== null && bucketBounds.upperMs <= options.targetMs;
  const verdict: Verdict =
    measuredStackedMs === 0
      ? "undecided"
      : slackMs < 0 || !fitsStacked || certainlyOver
        ? "does-not-fit"
        : fits && (certainlyWithin || prediction === null)
          ? "fits"
          : "undecided";
  const decidingBuckets = verdict === "undecided" ? decidingBucketsOf(stages, key) : [];
  return {
    quantile: options.quantile,
    targetMs: options.targetMs,
    stages: proposed,
    measuredStackedMs,
    stackedMs,
    slackMs,
    predictedEndToEndMs,
    predictedErrorBoundMs: prediction?.errorBoundMs ?? null,
    bucketBounds,
    fits,
    verdict,
    decidingBuckets,
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
      predictedOver,
      unresolved,
      predictedErrorBoundMs: prediction?.errorBoundMs ?? 0,
      verdict,
      bucketBounds,
      decidingBuckets,
    }),
    headroomScale: scale,
    cuts,
    missing,
  };
}

/**
 * Single cuts that would close a deficit, each checked with the convolution: a component on a
 * stage's critical path gains at most its lead over the next-slowest component in the stacked sum
 * (so it must lead by the stacked deficit), and the predicted end-to-end pXX after the cut must be
 * within the target. A cut of c lowers the end to end by at most c, so the search starts at the
 * larger deficit and grows by the secant through no cut (a few convolutions per component).
 */
function cutsToFit(
  stages: StageHistograms,
  critical: { slowest: { name: string; measured: Measured } | null; second: { measured: Measured } | null }[],
  stackedDeficitMs: number,
  predicted: { ms: number; errorBoundMs: number } | null,
  options: { quantile: number; targetMs: number },
): Cut[] {
  const key = percentileKeyOf(options.quantile) ?? "p95";
  const cuts: Cut[] = [];
  const predictedMs = predicted?.ms ?? null;
  // The deficit the prediction vouches for: what its lower end is over the target.
  const predictedDeficit =
    predicted === null ? 0 : Math.max(0, predicted.ms - predicted.errorBoundMs - options.targetMs);
  // The four slowest stages are the candidates: at most three cuts are shown.
  const candidates = new Set(
    critical
      .map((c, s) => ({ s, ms: c.slowest?.measured[key] ?? -1 }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 4)
      .map((c) => c.s),
  );
  critical.forEach((c, s) => {
    if (!c.slowest || !candidates.has(s)) return;
    const gainable = c.slowest.measured[key]! - (c.second?.measured[key] ?? 0);
    if (stackedDeficitMs > 0 && gainable < stackedDeficitMs) return;
    const component = stages[s]!.components.findIndex((x) => x.name === c.slowest!.name);
    const buckets = stages[s]!.components[component]?.buckets;
    const finite = buckets ? normaliseBuckets(buckets).filter((b) => Number.isFinite(b.upperBound)) : [];
    // Beyond its largest finite bound a cut changes nothing more.
    const most = up(Math.max(0, ...finite.map((b) => b.upperBound * 1000)));
    // A cut closes the gap only when the prediction after it is within the target at its upper end.
    const predictAfter = (cutMs: number) => {
      const after = predictEndToEnd(stages, {
        ...options,
        changes: [{ stage: s, component, label: c.slowest!.name, kind: "shift", ms: -cutMs }],
      });
      return after ? { ms: after.quantileMs, upper: after.quantileMs + after.errorBoundMs } : null;
    };
    let cutMs = up(Math.max(stackedDeficitMs, predictedDeficit, 0.1));
    let after = predictAfter(cutMs);
    for (let i = 0; i < 8 && after !== null && predictedMs !== null && after.upper > options.targetMs; i++) {
      if (cutMs >= most) return;
      const gained = predictedMs - after.ms;
      const next = gained > 0 ? up((cutMs * (after.upper - options.targetMs + gained)) / gained) : cutMs * 2;
      cutMs = Math.min(most, Math.max(next, up(cutMs * 1.05)));
      after = predictAfter(cutMs);
    }
    if (after !== null && after.upper > options.targetMs) return;
    cuts.push({ stage: stages[s]!.name, component: c.slowest.name, cutMs, predictedEndToEndMs: after?.ms ?? null });
  });
  // The cut that leaves the best predicted end to end first: it is the one the convolution likes.
  return cuts.sort((a, b) => (a.predictedEndToEndMs ?? Infinity) - (b.predictedEndToEndMs ?? Infinity)).slice(0, 3);
}

/** The bucket holding each component's measured pXX, widest first: bounds inside them would decide. */
function decidingBucketsOf(stages: StageHistograms, key: PercentileKey): DecidingBucket[] {
  const found: DecidingBucket[] = [];
  for (const stage of stages)
    for (const component of stage.components) {
      if (!component.buckets) continue;
      const value = measure(component.buckets).measured[key];
      if (value === null) continue;
      const sorted = normaliseBuckets(component.buckets);
      let from = 0;
      for (const bucket of sorted) {
        const to = bucket.upperBound * 1000;
        if (value <= to + 1e-9) {
          found.push({
            stage: stage.name,
            component: component.name,
            fromMs: from,
            toMs: Number.isFinite(to) ? to : null,
          });
          break;
        }
        from = Math.max(0, to);
      }
    }
  const width = (b: DecidingBucket) => (b.toMs === null ? Infinity : b.toMs - b.fromMs);
  return found.sort((a, b) => width(b) - width(a)).slice(0, 3);
}

/** What a proposal's note is written from. */
type NoteFacts = {
  key: PercentileKey;
  slackMs: number;
  measuredStackedMs: number;
  predictedEndToEndMs: number | null;
  fits: boolean;
  cuts: Cut[];
  missing: string[];
  targetMs: number;
  scale: number;
  predictedOver: boolean;
  unresolved: boolean;
  predictedErrorBoundMs: number;
};

function noteOf(
  p: NoteFacts & { verdict: Verdict; bucketBounds: BucketBounds | null; decidingBuckets: DecidingBucket[] },
): string {
  const parts = mainNote(p);
  const bounds = p.bucketBounds;
  if (p.measuredStackedMs > 0 && bounds && p.predictedEndToEndMs !== null) {
    const range = `${formatMs(round(bounds.lowerMs))}–${bounds.upperMs === null ? "unbounded (the +Inf bucket)" : formatMs(round(bounds.upperMs))}`;
    if (p.verdict === "undecided")
      parts.push(
        `The buckets cannot decide: with every request at its bucket's lower edge the end-to-end ${p.key} would be ${formatMs(round(bounds.lowerMs))}, at its upper edge ${bounds.upperMs === null ? "unbounded" : formatMs(round(bounds.upperMs))}, and the ${formatMs(p.targetMs)} target lies between.${
          p.decidingBuckets.length
            ? ` Bucket bounds inside ${p.decidingBuckets
                .map(
                  (b) =>
                    `${b.component}'s (${formatMs(round(b.fromMs))}, ${b.toMs === null ? "+Inf" : formatMs(round(b.toMs))}]`,
                )
                .join(", ")} (where the ${p.key}s fall) would decide.`
            : ""
        }`,
      );
    else parts.push(`The buckets allow an end-to-end ${p.key} of ${range}.`);
  }
  return parts.join(" ");
}

function mainNote(p: NoteFacts): string[] {
  const parts: string[] = [];
  if (p.missing.length)
    parts.push(`No budget for ${plural(p.missing.length, "component")} without data: ${p.missing.join(", ")}.`);
  if (p.measuredStackedMs === 0) return [...parts, "Nothing was measured: no budget can be proposed."];
  if (p.slackMs >= 0 && p.unresolved && p.predictedEndToEndMs !== null) {
    parts.push(
      `The measured ${p.key}s stack to ${formatMs(round(p.measuredStackedMs))}, ${formatMs(round(p.slackMs))} under the ${formatMs(p.targetMs)} target, and the predicted end-to-end ${p.key} of the pipeline as measured is ${formatMs(round(p.predictedEndToEndMs))} ± ${formatMs(roundUp(p.predictedErrorBoundMs))}: the target lies inside what the prediction can resolve, so it cannot say whether the pipeline is over or within it. The budgets are the measurements, with no headroom, and no cut is sized from the prediction.`,
    );
    return parts;
  }
  if (p.slackMs >= 0 && p.predictedOver && p.predictedEndToEndMs !== null) {
    parts.push(
      `The measured ${p.key}s stack to ${formatMs(round(p.measuredStackedMs))}, ${formatMs(round(p.slackMs))} under the ${formatMs(p.targetMs)} target, but the predicted end-to-end ${p.key} of the pipeline as measured is ${formatMs(round(p.predictedEndToEndMs))}: ${formatMs(round(p.predictedEndToEndMs - p.targetMs))} over the target (a parallel stage lasts as long as its slowest component, and the ${p.key} of a sum is not the sum of ${p.key}s), so the budgets are the measurements, with no headroom.`,
    );
    parts.push(cutsNote(p.cuts));
    return parts;
  }
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
    return parts;
  }
  parts.push(
    `The measured ${p.key}s stack to ${formatMs(round(p.measuredStackedMs))}: ${formatMs(round(-p.slackMs))} over the ${formatMs(p.targetMs)} target, so the budgets are the measurements.`,
  );
  if (p.predictedEndToEndMs !== null && p.predictedEndToEndMs + p.predictedErrorBoundMs <= p.targetMs)
    parts.push(
      `Independent components would still reach an end-to-end ${p.key} of ${formatMs(round(p.predictedEndToEndMs))} (stacking percentiles overstates a sum), but stacked budgets cannot fit.`,
    );
  parts.push(cutsNote(p.cuts));
  return parts;
}

function cutsNote(cuts: Cut[]): string {
  if (cuts.length === 0) return "No single component can close it alone: cut several, or raise the target.";
  return `Cuts that close it alone: ${cuts
    .map(
      (c) =>
        `${c.component} −${formatMs(c.cutMs)}${c.predictedEndToEndMs !== null ? ` (predicted end to end ${formatMs(round(c.predictedEndToEndMs))})` : ""}`,
    )
    .join("; ")}.`;
}

const round = (ms: number) => Math.round(ms * 10) / 10;
/** A bound is shown rounded up, so it is never narrower than what was computed. */
const roundUp = (ms: number) => Math.ceil(ms * 10 - 1e-9) / 10;
