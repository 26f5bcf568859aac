import { normaliseBuckets, type Bucket } from "./histogram";

// What-if: the end-to-end distribution predicted from the component histograms. Each component is
// read as Prometheus reads a histogram (uniform inside a bucket), a parallel stage is the max of
// its components (CDFs multiply), and stages add (distributions convolve) — all assuming the
// components are independent, which real requests are not quite: the gap between this prediction
// and the measured end-to-end histogram is that correlation.
//
// Everything lives on one grid of step h. Each stage's time is rounded *up* to the grid, so the
// computed sum is never below the true one and at most K·h above it (K stages). Each component's
// far tail (beyond its 1 − ε quantile, ε from tailEpsilon) is folded onto that point, so the grid
// spans what matters; that moves at most C·ε of probability (C components), and the bound covers it too.
// The answer is the middle of the resulting interval. One convolution, no sampling noise.

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
};

/** Mass between consecutive bounds, in ms: the piecewise-uniform reading of a histogram. */
type Pieces = { lo: number; hi: number; mass: number }[];

function piecesOf(buckets: readonly Bucket[]): { pieces: Pieces; tailMass: number } | null {
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
  if (tailMass > 0) pieces.push({ lo: previousBound * 1000, hi: previousBound * 1000, mass: tailMass });
  return { pieces, tailMass };
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
      whole[Math.min(n, Math.ceil(lo / h - 1e-9))]! += mass;
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

/** The least share of a component's probability folded onto its cap. */
export const TAIL_EPSILON = 1e-6;

/**
 * The share of each component's far tail folded onto its cap, chosen from the question: all the
 * folded mass together stays under a tenth of 1 − q (and under 10⁻³), so it moves the answer by
 * no more than the bound says, while one rare observation hours out (2 in 100,000 in vLLM's
 * 1920–7680 s queue bucket) no longer stretches the grid over hours and makes every cell seconds wide.
 */
export function tailEpsilon(quantile: number, components: number): number {
  const budget = Math.min(1e-3, Math.max(0, 1 - quantile) / 10);
  return Math.max(TAIL_EPSILON, budget / Math.max(1, components));
}

/** The (1 − ε) quantile of a piecewise-uniform distribution. */
function capOf(pieces: Pieces, epsilon: number): number {
  const target = 1 - epsilon;
  let below = 0;
  for (const { lo, hi, mass } of [...pieces].sort((a, b) => a.hi - b.hi)) {
    if (below + mass >= target) return hi <= lo ? lo : lo + ((target - below) / mass) * (hi - lo);
    below += mass;
  }
  return Math.max(0, ...pieces.map((p) => p.hi));
}

/** Rounded-up probabilities: cell (k−1)h..kh goes to k; returns the pmf up to the last non-zero. */
function pmfOf(cdf: Float64Array): Float64Array {
  let last = cdf.length - 1;
  while (last > 0 && cdf[last - 1]! >= 1 - 1e-12) last--;
  const pmf = new Float64Array(last + 1);
  pmf[0] = cdf[0]!;
  for (let k = 1; k <= last; k++) pmf[k] = Math.max(0, cdf[k]! - cdf[k - 1]!);
  return pmf;
}

function convolve(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) {
    const ai = a[i]!;
    if (ai === 0) continue;
    for (let j = 0; j < b.length; j++) out[i + j]! += ai * b[j]!;
  }
  return out;
}

/** Grid cells over the widest possible sum: fine enough for a ~0.1 % error bound, fast enough for 10 stages. */
export const GRID_CELLS = 4096;

export function predictEndToEnd(
  stages: StageHistograms,
  options: { quantile: number; targetMs: number; changes?: readonly Change[] },
): Prediction | null {
  const changeOf = new Map((options.changes ?? []).map((c) => [`${c.stage}.${c.component}`, c]));
  const missing: string[] = [];
  let isLowerBound = false;
  const stagePieces: Pieces[][] = [];
  stages.forEach((stage, s) => {
    const components: Pieces[] = [];
    stage.components.forEach((component, c) => {
      const read = component.buckets ? piecesOf(component.buckets) : null;
      if (!read) {
        missing.push(component.name);
        return;
      }
      if (read.tailMass > 0) isLowerBound = true;
      components.push(applyChange(read.pieces, changeOf.get(`${s}.${c}`)));
    });
    if (components.length) stagePieces.push(components);
  });
  if (stagePieces.length === 0) return null;

  const componentCount = stagePieces.reduce((n, c) => n + c.length, 0);
  const epsilon = tailEpsilon(options.quantile, componentCount);
  const widest = stagePieces.map((components) => Math.max(...components.map((p) => capOf(p, epsilon)), 0));
  const span = widest.reduce((a, b) => a + b, 0);
  const h = Math.max(span / GRID_CELLS, 1e-6);

  let sum: Float64Array | null = null;
  for (const [i, components] of stagePieces.entries()) {
    const n = Math.ceil(widest[i]! / h) + 1;
    const stageCdf = new Float64Array(n + 1).fill(1);
    for (const pieces of components) {
      const cdf = cdfOnGrid(pieces, h, n);
      // What lies beyond the grid is folded onto its last point.
      cdf[n] = 1;
      for (let k = 0; k <= n; k++) stageCdf[k]! *= Math.min(1, cdf[k]!);
    }
    const pmf = pmfOf(stageCdf);
    sum = sum ? convolve(sum, pmf) : pmf;
  }
  const pmf = sum!;
  const cumulative = new Float64Array(pmf.length);
  let running = 0;
  for (let k = 0; k < pmf.length; k++) cumulative[k] = running += pmf[k]!;
  const total = running;
  const stagesCount = stagePieces.length;
  const folded = componentCount * epsilon;
  // With S the true sum, T ≤ S the sum with tails folded (equal but with probability ≤ C·ε) and
  // U the rounded-up T (T ≤ U ≤ T + K·h): S's q-quantile lies in [Q_U(q) − K·h, Q_U(q + C·ε)].
  const quantileOfUpper = (q: number) => {
    const rank = Math.min(1, q) * total;
    let k = 0;
    while (k < cumulative.length - 1 && cumulative[k]! < rank - 1e-12) k++;
    return k * h;
  };
  const cdfOfUpperAt = (ms: number) => {
    const k = Math.floor(ms / h + 1e-9);
    return k < 0 ? 0 : k >= cumulative.length ? 1 : cumulative[k]! / total;
  };
  const low = Math.max(0, quantileOfUpper(options.quantile) - stagesCount * h);
  const high = quantileOfUpper(options.quantile + folded);
  // P(S ≤ t) lies between P(U ≤ t) − C·ε and P(U ≤ t + K·h).
  const attainmentLow = Math.max(0, cdfOfUpperAt(options.targetMs) - folded);
  const attainmentHigh = cdfOfUpperAt(options.targetMs + stagesCount * h);
  const halfWidth = (stagesCount * h) / 2;
  const cdf: [number, number][] = [];
  const step = Math.max(1, Math.floor(cumulative.length / 200));
  for (let k = 0; k < cumulative.length; k += step) cdf.push([k * h - halfWidth, cumulative[k]! / total]);
  return {
    quantileMs: (low + high) / 2,
    errorBoundMs: (high - low) / 2,
    isLowerBound,
    attainment: (attainmentLow + attainmentHigh) / 2,
    attainmentError: (attainmentHigh - attainmentLow) / 2,
    cdf,
    missing,
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
