import { convolve } from "./convolution";
import { normaliseBuckets, type Bucket } from "./histogram";

// What-if: the end-to-end distribution predicted from the component histograms. Each component is
// read as Prometheus reads a histogram (uniform inside a bucket), a parallel stage is the max of
// its components (CDFs multiply), and stages add (distributions convolve) — all assuming the
// components are independent, which real requests are not quite: the gap between this prediction
// and the measured end-to-end histogram is that correlation.
//
// Everything lives on one grid of step h. Each stage's time is rounded *up* to the grid, so the
// computed sum is never below the true one and at most K·h above it (K stages); h is chosen from
// the answer (K·h/2 under 0.4 % of a lower estimate of it), not from the number of components.
// Far tails are folded onto a cap chosen per stage, all of them together moving at most a fixed
// share of probability (a tenth of 1 − q, at most 10⁻³) whatever the number of components, and
// the bound counts exactly what was moved. When far tails together carry more than that share
// (50 queues each with 2 in 100,000 requests hours out), they are cut off instead of folded (sent
// to +∞): exact below where they start, counted exactly above, and the grid stays on the body.
// The answer is the middle of the resulting interval.
// One convolution, no sampling noise: stages are added in pairs, then pairs of pairs, through an
// FFT once they are long (./convolution.ts), whose round-off is counted in the bound too.
//
// The buckets themselves cannot say where inside a bucket requests fall: `bucketBounds` is the
// interval between putting every bucket's mass at its lower edge and at its upper edge (the +Inf
// bucket's mass then unbounded), the same computation on those two readings.

export type ComponentHistogram = { name: string; buckets: readonly Bucket[] | null };
export type StageHistograms = { name: string; components: ComponentHistogram[] }[];

export type Change = { stage: number; component: number; label: string } & (
  { kind: "shift"; ms: number } | { kind: "scale"; factor: number }
);

export type Prediction = {
  /** The predicted q-quantile of the end-to-end time, in ms (the middle of its error interval). */
  quantileMs: number;
  errorBoundMs: number;
  /** Some component's tail is in the +Inf bucket: the true value may be higher. */
  isLowerBound: boolean;
  /** P(end to end ≤ targetMs) under the prediction, ± attainmentError. */
  attainment: number;
  attainmentError: number;
  /** The predicted CDF, for a chart: [ms, share at or under]. */
  cdf: [number, number][];
  /** Components left out because they have no data (their stage counts only the rest). */
  missing: string[];
  /** What the buckets allow, when asked for (options.bucketBounds); null otherwise. */
  bucketBounds: BucketBounds | null;
};

/**
 * The q-quantile with every bucket's mass at its lower edge (lowerMs) and at its upper edge
 * (upperMs; null when the +Inf bucket's share reaches the quantile, so no finite bound holds).
 * Any placement of requests inside their buckets gives a value in between; the uniform reading
 * (quantileMs ± errorBoundMs) always lies inside.
 */
export type BucketBounds = { lowerMs: number; upperMs: number | null };

/** Mass between consecutive bounds, in ms: the piecewise-uniform reading of a histogram. */
type Pieces = { lo: number; hi: number; mass: number }[];

/**
 * A component's histogram three ways: Prometheus's reading (uniform inside each bucket, the +Inf
 * bucket at the last finite bound), and the two extremes the buckets allow — every bucket's mass
 * at its lower edge, and at its upper edge (the +Inf bucket's mass then has no finite place: it is
 * left out, so the distribution holds less than 1 and the rest is "later than any time").
 */
type Readings = { uniform: Pieces; lower: Pieces; upper: Pieces; tailMass: number };

function readingsOf(buckets: readonly Bucket[]): Readings | null {
  const sorted = normaliseBuckets(buckets);
  const last = sorted[sorted.length - 1];
  if (!last || last.upperBound !== Number.POSITIVE_INFINITY || !(last.count > 0) || sorted.length < 2) return null;
  const total = last.count;
  const pieces: Pieces = [];
  let previousBound = 0;
  let previousCount = 0;
  for (const bucket of sorted.slice(0, -1)) {
    const mass = (bucket.count - previousCount) / total;
    // Like histogram_quantile, the first bucket starts at 0 (a negative bound is a point).
    const lo = Math.max(0, previousBound) * 1000;
    const hi = Math.max(0, bucket.upperBound) * 1000;
    if (mass > 0) pieces.push({ lo, hi, mass });
    previousBound = bucket.upperBound;
    previousCount = bucket.count;
  }
  // The +Inf bucket's share sits at the last finite bound: the least it can be.
  const tailMass = (total - previousCount) / total;
  const tail: Pieces = tailMass > 0 ? [{ lo: previousBound * 1000, hi: previousBound * 1000, mass: tailMass }] : [];
  return {
    uniform: [...pieces, ...tail],
    lower: [...pieces.map((p) => ({ lo: p.lo, hi: p.lo, mass: p.mass })), ...tail],
    upper: pieces.map((p) => ({ lo: p.hi, hi: p.hi, mass: p.mass })),
    tailMass,
  };
}

function applyChange(pieces: Pieces, change: Change | undefined): Pieces {
  if (!change) return pieces;
  if (change.kind === "scale")
    return pieces.map((p) => ({
      lo: Math.max(0, p.lo * change.factor),
      hi: Math.max(0, p.hi * change.factor),
      mass: p.mass,
    }));
  // A shift moves every observation by the same amount and no time falls below 0: the part of a
  // piece that would, lands on 0 as a point mass; the rest stays uniform above 0.
  return pieces.flatMap((p): Pieces => {
    const lo = p.lo + change.ms;
    const hi = p.hi + change.ms;
    if (hi <= 0) return [{ lo: 0, hi: 0, mass: p.mass }];
    if (lo >= 0 || p.hi <= p.lo) return [{ lo: Math.max(0, lo), hi, mass: p.mass }];
    const below = -lo / (hi - lo);
    return [
      { lo: 0, hi: 0, mass: p.mass * below },
      { lo: 0, hi, mass: p.mass * (1 - below) },
    ];
  });
}

/** F(x) of a piecewise-uniform distribution, evaluated at grid points 0, h, 2h, … up to n. */
function cdfOnGrid(pieces: Pieces, h: number, n: number): Float64Array {
  const cdf = new Float64Array(n + 1);
  // Whole pieces below a grid point are added once, where they end, and carried up by a prefix sum.
  const whole = new Float64Array(n + 2);
  for (const { lo, hi, mass } of pieces) {
    if (hi <= lo) {
      // A point mass at lo counts from the first grid point at or above it.
      whole[Math.max(0, Math.min(n, Math.ceil(lo / h - 1e-9)))]! += mass;
      continue;
    }
    if (hi <= 0) {
      whole[0]! += mass;
      continue;
    }
    const kLo = Math.max(0, Math.ceil(lo / h - 1e-9));
    const kHi = Math.min(n, Math.floor(hi / h + 1e-9));
    // Density mass/(hi−lo): grid point k gains the part of the piece at or under k·h.
    for (let k = kLo; k <= kHi; k++) cdf[k]! += (mass * (k * h - lo)) / (hi - lo);
    whole[kHi + 1]! += mass;
  }
  let carried = 0;
  for (let k = 0; k <= n; k++) cdf[k]! += carried += whole[k]!;
  return cdf;
}

/** The share of the distribution above w (w ≥ 0). */
function massAbove(pieces: Pieces, w: number): number {
  let above = 0;
  for (const { lo, hi, mass } of pieces) {
    if (hi <= lo) above += lo > w ? mass : 0;
    else if (w < lo) above += mass;
    else if (w < hi) above += (mass * (hi - w)) / (hi - lo);
  }
  return above;
}

/** P(X ≤ t) of a piecewise-uniform distribution. */
function massAtOrBelow(pieces: Pieces, t: number): number {
  let below = 0;
  for (const { lo, hi, mass } of pieces) {
    if (hi <= lo) below += lo <= t ? mass : 0;
    else if (t >= hi) below += mass;
    else if (t > lo) below += (mass * (t - lo)) / (hi - lo);
  }
  return below;
}

/**
 * The share of probability the tails may move, all components together: under a tenth of 1 − q
 * (and under 10⁻³), whatever the number of components, so it moves the answer by no more than the
 * bound says. It is shared out where it narrows the grid most (see chooseCaps), not evenly.
 */
export function foldBudget(quantile: number): number {
  return Math.min(1e-3, Math.max(0, 1 - quantile) / 10);
}

/** The share of probability far tails may be cut off (sent to +∞): a quarter of 1 − q. */
export function cutBudget(quantile: number): number {
  return Math.max(0, 1 - quantile) / 4;
}

/**
 * Where each stage's distribution is cut (its far tail folded onto that point), so the folded mass
 * stays within the budget and the grid spans as little as it can: minimise Σ w_s subject to
 * Σ_s P(stage s > w_s) ≤ budget (each stage's share bounded by the sum over its components). The
 * Lagrangian min over w of w + λ·H_s(w) is reached at a bucket edge (H_s is linear between edges),
 * so each stage only tries its edges, and λ is found by bisection. One rare observation hours out
 * (2 in 100,000 in vLLM's 1920–7680 s queue bucket) is folded whole, with its exact mass, however
 * many components there are.
 */
function chooseCaps(stages: Pieces[][], budget: number): { caps: number[]; folded: number } {
  const tables = stages.map((components) => {
    const edges = new Set<number>([0]);
    for (const pieces of components)
      for (const { lo, hi } of pieces) {
        if (lo > 0) edges.add(lo);
        if (hi > 0) edges.add(hi);
      }
    const knots = [...edges].sort((a, b) => a - b);
    const above = knots.map((w) => components.reduce((sum, pieces) => sum + massAbove(pieces, w), 0));
    return { knots, above };
  });
  const choose = (lambda: number) =>
    tables.map(({ knots, above }) => {
      // From the widest edge down; a lower edge only when strictly better (ties keep the mass).
      let best = knots.length - 1;
      let bestCost = knots[best]! + lambda * above[best]!;
      for (let i = knots.length - 2; i >= 0; i--) {
        const cost = knots[i]! + lambda * above[i]!;
        if (cost < bestCost) [best, bestCost] = [i, cost];
      }
      return best;
    });
  const foldedBy = (choice: number[]) => choice.reduce((sum, i, s) => sum + tables[s]!.above[i]!, 0);
  let [low, high] = [-12, 40]; // log10 λ
  let choice = choose(10 ** high);
  if (foldedBy(choose(10 ** low)) <= budget) choice = choose(10 ** low);
  else
    for (let i = 0; i < 80; i++) {
      const mid = (low + high) / 2;
      const tried = choose(10 ** mid);
      if (foldedBy(tried) <= budget) [high, choice] = [mid, tried];
      else low = mid;
    }
  return { caps: choice.map((i, s) => tables[s]!.knots[i]!), folded: foldedBy(choice) };
}

/** Rounded-up probabilities: cell (k−1)h..kh goes to k; returns the pmf up to the last non-zero. */
function pmfOf(cdf: Float64Array, full: number): Float64Array {
  let last = cdf.length - 1;
  while (last > 0 && cdf[last - 1]! >= full - 1e-12) last--;
  const pmf = new Float64Array(last + 1);
  pmf[0] = cdf[0]!;
  for (let k = 1; k <= last; k++) pmf[k] = Math.max(0, cdf[k]! - cdf[k - 1]!);
  return pmf;
}

/** A pmf on grid cells start, start + 1, …: leading cells of negligible mass are dropped. */
type Dist = { start: number; p: Float64Array };

/** Mass trimmed from either end of a partial sum, per convolution: accounted for in the bound. */
const TRIM = 1e-15;

/**
 * Trims a partial sum's ends: the low end's mass moves up onto the first kept cell (counted in
 * `raised`), the high end's folds down onto the last kept cell (counted in `folded`).
 */
function trim(d: Dist): { d: Dist; raised: number; folded: number } {
  const p = d.p;
  let first = 0;
  let raised = 0;
  while (first < p.length - 1 && raised + p[first]! <= TRIM) raised += p[first++]!;
  let last = p.length - 1;
  let folded = 0;
  while (last > first && folded + p[last]! <= TRIM) folded += p[last--]!;
  if (first === 0 && last === p.length - 1) return { d, raised: 0, folded: 0 };
  const kept = p.slice(first, last + 1);
  kept[0]! += raised;
  kept[kept.length - 1]! += folded;
  return { d: { start: d.start + first, p: kept }, raised, folded };
}

/** Grid cells over the widest possible sum, at least: fine enough for a ~0.1 % bound on a few stages. */
export const GRID_CELLS = 4096;
/** The grid's own error is kept under this share of the answer (a lower estimate of it)… */
export const GRID_PRECISION = 0.004;
/** …with at most this many cells over the sum's span. */
export const MAX_GRID_CELLS = 1 << 16;

type Solved = {
  low: number;
  high: number;
  attainmentLow: number;
  attainmentHigh: number;
  cdf: [number, number][];
};

/**
 * The q-quantile of Σ_s max_i X_si, as an interval that contains the exact answer for the given
 * distributions. Each stage starts at the largest of its components' least values, m_s: that part
 * adds exactly (M = Σ m_s) and only the rest, Y_s, goes on the grid. With S the true sum, T ≤ S the
 * sum with tails folded (T = S but with probability ≤ F, counted exactly) and U the rounded-up T
 * (T ≤ U ≤ T + K·h, K the stages wider than a point), and D the mass trimmed off U's low end:
 * Q_S(q) ∈ [Q_U(q − D) − K·h, Q_U(q + F)], P(S ≤ t) ∈ [P(U ≤ t) − F, P(U ≤ t + K·h) + D].
 * The cell h is chosen for the answer (K·h/2 under GRID_PRECISION of a lower estimate of it), not
 * from the number of components. A distribution that holds less than 1 (the upper-edge reading)
 * has the rest at +∞: its quantile is Infinity when the finite part does not reach it.
 */
function solve(stages: Pieces[][], quantile: number, targetMs: number, refine = true): Solved {
  const shifted = stages.map((components) => {
    const least = (pieces: Pieces) => (pieces.length ? Math.min(...pieces.map((p) => Math.max(0, p.lo))) : 0);
    const m = Math.max(0, ...components.map(least));
    return {
      m,
      components: components.map((pieces) => pieces.map((p) => ({ lo: p.lo - m, hi: p.hi - m, mass: p.mass }))),
      finite: components.map((pieces) => pieces.reduce((sum, p) => sum + p.mass, 0)),
    };
  });
  const M = shifted.reduce((sum, s) => sum + s.m, 0);
  // Tails folded onto the caps move the answer by up to the folded share, so that share is kept
  // small. When far tails carry more than that (50 stages each with 2 in 100,000 requests hours
  // out), folding would put them inside the grid and stretch it over hours: then the tails beyond
  // a wider budget's caps are cut off instead (sent to +∞, see solveWith), which is exact below
  // where they start and counted exactly above.
  const components = shifted.map((s) => s.components);
  const folding = chooseCaps(components, foldBudget(quantile));
  const cutting = chooseCaps(components, cutBudget(quantile));
  const spanOf = (caps: number[]) => caps.reduce((a, b) => a + b, 0);
  if (spanOf(cutting.caps) * 4 < spanOf(folding.caps)) {
    const cut = solveWith(shifted, M, cutting.caps, 0, true, quantile, targetMs, refine);
    if (Number.isFinite(cut.high)) return cut;
  }
  return solveWith(shifted, M, folding.caps, folding.folded, false, quantile, targetMs, refine);
}

type Shifted = { m: number; components: Pieces[]; finite: number[] }[];

/**
 * solve() on given caps. Folding (cut = false): a stage's mass beyond its cap sits on the cap.
 * Cutting (cut = true): it is left out (at +∞), so the computed sum T' ≥ S and P(S ≤ t) ≥
 * P(T' ≤ t); and P(S ≤ t) ≤ P(T' ≤ t) + G(t), G(t) = Σ_s P(stage s in (w_s, t − M]) (S ≤ t
 * needs every stage at or under t − M), which is 0 below where the cut tails start.
 */
function solveWith(
  shifted: Shifted,
  M: number,
  caps: number[],
  tailsFolded: number,
  cutTails: boolean,
  quantile: number,
  targetMs: number,
  refine: boolean,
): Solved {
  const K = caps.filter((w) => w > 0).length;
  const span = caps.reduce((a, b) => a + b, 0);

  // A lower estimate of the answer: S ≥ M + Y_s for every stage, so Q_S(q) ≥ M + max_s Q_{Y_s}(q).
  let estimate = M;
  shifted.forEach((s, i) => {
    const cdf = (t: number) => s.components.reduce((prod, pieces) => prod * massAtOrBelow(pieces, t), 1);
    if (cdf(caps[i]!) < quantile) return void (estimate = Math.max(estimate, M + caps[i]!));
    let [lo, hi] = [0, caps[i]!];
    for (let j = 0; j < 40; j++) {
      const mid = (lo + hi) / 2;
      if (cdf(mid) >= quantile) hi = mid;
      else lo = mid;
    }
    estimate = Math.max(estimate, M + lo);
  });
  const onGrid = (h: number): Solved => {
    let raised = 0;
    let folded = tailsFolded;
    let full = 1;
    // Where each stage is cut (its grid's last point), for G.
    const ends: number[] = [];
    let level: Dist[] = shifted.map((s, i) => {
      const n = Math.ceil(caps[i]! / h - 1e-9);
      ends.push(n * h);
      const stageCdf = new Float64Array(n + 1).fill(1);
      s.components.forEach((pieces, c) => {
        const cdf = cdfOnGrid(pieces, h, n);
        // What lies beyond the cap is folded onto the last point (or, cut, left out).
        if (!cutTails) cdf[n] = s.finite[c]!;
        for (let k = 0; k <= n; k++) stageCdf[k]! *= Math.min(s.finite[c]!, cdf[k]!);
      });
      const stageFull = cutTails ? stageCdf[n]! : s.finite.reduce((a, b) => a * b, 1);
      full *= stageFull;
      return { start: 0, p: pmfOf(stageCdf, stageFull) };
    });
    /** G(t): the cut tails' mass at or under t − M, stage by stage (0 when folding). */
    const cutBelow = (t: number) => {
      if (!cutTails) return 0;
      let g = 0;
      shifted.forEach((s, i) => {
        const x = t - M;
        if (!(x > ends[i]!)) return;
        const at = (y: number) => s.components.reduce((prod, pieces) => prod * massAtOrBelow(pieces, y), 1);
        g += Math.max(0, at(x) - at(ends[i]!));
      });
      return g;
    };
    // Stages are added in pairs, then pairs of pairs: the convolutions stay balanced, where the
    // FFT is cheapest (a running sum would convolve a long sum with one short stage K times).
    while (level.length > 1) {
      const next: Dist[] = [];
      for (let i = 0; i + 1 < level.length; i += 2) {
        const [a, b] = [level[i]!, level[i + 1]!];
        const product = convolve(a.p, b.p);
        const trimmed = trim({ start: a.start + b.start, p: product.p });
        next.push(trimmed.d);
        // The FFT's round-off moves the CDF by at most its L1 error, either way.
        raised += trimmed.raised + product.error;
        folded += trimmed.folded + product.error;
      }
      if (level.length % 2) next.push(level[level.length - 1]!);
      level = next;
    }
    const sum = level[0] ?? null;
    const { start, p } = sum ?? { start: 0, p: Float64Array.of(full) };
    const cumulative = new Float64Array(p.length);
    let running = 0;
    for (let k = 0; k < p.length; k++) cumulative[k] = running += p[k]!;
    // Float drift only: the computed total is `full` up to rounding.
    const scale = running > 0 ? full / running : 1;
    for (let k = 0; k < p.length; k++) cumulative[k]! *= scale;
    const valueAt = (k: number) => M + (start + k) * h;
    const quantileOfUpper = (q: number) => {
      if (q <= 0) return valueAt(0);
      if (q > cumulative[cumulative.length - 1]! + 1e-12)
        return q > full - 1e-12 && full < 1 ? Infinity : valueAt(cumulative.length - 1);
      let k = 0;
      while (k < cumulative.length - 1 && cumulative[k]! < q - 1e-12) k++;
      return valueAt(k);
    };
    const cdfOfUpperAt = (ms: number) => {
      const k = Math.floor((ms - M) / h + 1e-9) - start;
      return k < 0 ? 0 : k >= cumulative.length ? full : cumulative[k]!;
    };
    const rounding = K * h;
    const high = quantileOfUpper(Math.min(1, quantile + folded));
    const low = Math.max(M, quantileOfUpper(quantile - raised - cutBelow(high)) - rounding);
    const attainmentLow = Math.max(0, cdfOfUpperAt(targetMs) - folded);
    const attainmentHigh = Math.min(1, cdfOfUpperAt(targetMs + rounding) + raised + cutBelow(targetMs));
    const cdf: [number, number][] = [];
    const step = Math.max(1, Math.floor(cumulative.length / 200));
    for (let k = 0; k < cumulative.length; k += step) cdf.push([valueAt(k) - rounding / 2, cumulative[k]!]);
    return { low, high, attainmentLow, attainmentHigh, cdf };
  };
  // The grid's rounding (K·h/2) is kept under GRID_PRECISION of the answer: one pass when a cheap
  // lower estimate already shows it; else a coarse pass gives a better lower bound (its own low
  // end) and the grid is refined for it.
  if (span === 0 || K === 0) return onGrid(1);
  const coarse = span / GRID_CELLS;
  const finest = span / MAX_GRID_CELLS;
  if (!refine || (K * coarse) / 2 <= GRID_PRECISION * estimate) return onGrid(coarse);
  const first = onGrid(coarse);
  const h = Math.max(finest, Math.min(coarse, (2 * GRID_PRECISION * first.low) / K));
  return h < coarse * 0.95 ? onGrid(h) : first;
}

export function predictEndToEnd(
  stages: StageHistograms,
  options: { quantile: number; targetMs: number; changes?: readonly Change[]; bucketBounds?: boolean },
): Prediction | null {
  const changeOf = new Map((options.changes ?? []).map((c) => [`${c.stage}.${c.component}`, c]));
  const missing: string[] = [];
  let isLowerBound = false;
  const read: Readings[][] = [];
  stages.forEach((stage, s) => {
    const components: Readings[] = [];
    stage.components.forEach((component, c) => {
      const readings = component.buckets ? readingsOf(component.buckets) : null;
      if (!readings) {
        missing.push(component.name);
        return;
      }
      if (readings.tailMass > 0) isLowerBound = true;
      const change = changeOf.get(`${s}.${c}`);
      components.push({
        uniform: applyChange(readings.uniform, change),
        lower: applyChange(readings.lower, change),
        upper: applyChange(readings.upper, change),
        tailMass: readings.tailMass,
      });
    });
    if (components.length) read.push(components);
  });
  if (read.length === 0) return null;

  const of = (reading: "uniform" | "lower" | "upper") => read.map((components) => components.map((c) => c[reading]));
  const uniform = solve(of("uniform"), options.quantile, options.targetMs);
  let bucketBounds: BucketBounds | null = null;
  if (options.bucketBounds) {
    // The buckets' own resolution dwarfs the coarse grid's: no refinement for these two.
    const lower = solve(of("lower"), options.quantile, options.targetMs, false);
    const upper = solve(of("upper"), options.quantile, options.targetMs, false);
    // Both ends are bounds on what the buckets allow, widened to hold the uniform reading's own
    // interval (it lies between the two extremes; only the grids' rounding could say otherwise).
    bucketBounds = {
      lowerMs: Math.min(lower.low, uniform.low),
      upperMs: Number.isFinite(upper.high) ? Math.max(upper.high, uniform.high) : null,
    };
  }
  return {
    quantileMs: (uniform.low + uniform.high) / 2,
    errorBoundMs: (uniform.high - uniform.low) / 2,
    isLowerBound,
    attainment: (uniform.attainmentLow + uniform.attainmentHigh) / 2,
    attainmentError: (uniform.attainmentHigh - uniform.attainmentLow) / 2,
    cdf: uniform.cdf,
    missing,
    bucketBounds,
  };
}

export type ParsedChange = { target: string } & ({ kind: "shift"; ms: number } | { kind: "scale"; factor: number });

/**
 * One `change` parameter: `<component>:-50` (ms, signed), `<component>:×0.7` (also `x0.7`, `*0.7`).
 * The component is its name, or "Stage / Component" when names repeat. Returns a message on error.
 */
export function parseChange(text: string): ParsedChange | { error: string } {
  const colon = text.lastIndexOf(":");
  if (colon <= 0)
    return { error: `“${text}” is not <component>:<change>, e.g. “RAG retrieval:-50” or “RAG retrieval:×0.7”.` };
  const target = text.slice(0, colon).trim();
  const raw = text.slice(colon + 1).trim();
  // "-50ms" is milliseconds; "-50 ms" is refused like any other unit written apart, so that
  // "-50 s" cannot be read as 50 ms.
  if (/\d\s+\S+$/.test(raw))
    return { error: `“${raw}” in “${text}” has a space before its unit: write −50 or −50ms (milliseconds).` };
  const value = raw.replace(/ms$/i, "");
  const factor = /^[×x*]\s*(\d+(?:\.\d+)?)$/i.exec(value);
  if (factor) {
    const f = Number(factor[1]);
    if (!(f >= 0 && f <= 10)) return { error: `The factor in “${text}” must be between 0 and 10.` };
    return { target, kind: "scale", factor: f };
  }
  const shift = /^([+−-])\s*(\d+(?:\.\d+)?)$/.exec(value);
  if (shift) {
    const ms = Number(shift[2]) * (shift[1] === "+" ? 1 : -1);
    if (Math.abs(ms) > 3_600_000) return { error: `The change in “${text}” is more than an hour.` };
    return { target, kind: "shift", ms };
  }
  return {
    error: `“${value}” in “${text}” is not a change: write −50 or +20 (milliseconds, with a sign) or ×0.7 (a factor).`,
  };
}

/** Where a change's target is in the pipeline: by name, or "Stage / Component" when names repeat. */
export function locateComponent(
  stages: readonly { name: string; components: readonly { name: string }[] }[],
  target: string,
): { stage: number; component: number; label: string } | { error: string } {
  const norm = (s: string) => s.trim().toLowerCase();
  const all = stages.flatMap((stage, s) =>
    stage.components.map((c, i) => ({ stage: s, component: i, label: c.name, qualified: `${stage.name} / ${c.name}` })),
  );
  const byQualified = all.filter((c) => norm(c.qualified) === norm(target));
  const matches = byQualified.length ? byQualified : all.filter((c) => norm(c.label) === norm(target));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    return { error: `There is no component “${target}”: choose one of ${all.map((c) => c.label).join(", ")}.` };
  return { error: `“${target}” names ${matches.length} components: write “Stage / Component”.` };
}

export function describeChange(change: ParsedChange | Change): string {
  return change.kind === "shift" ? `${change.ms < 0 ? "−" : "+"}${Math.abs(change.ms)} ms` : `×${change.factor}`;
}
