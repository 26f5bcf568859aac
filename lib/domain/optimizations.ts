// Combining latency optimizations honestly: savings on one component cannot take it below zero,
// a parallel stage lasts as long as its slowest component (speeding up one of two parallel
// searches shortens the stage only down to the other), stages add up, and cost factors multiply.
// Amdahl's law gives the ceiling of speeding up any one component.

export type Optimization = { name: string; component: string; savingMs: number; costPct: number };

/** The budget's real structure: ordered stages of parallel components, each with its time. */
export type Pipeline = { name: string; components: { name: string; ms: number }[] }[];

/** An option tied to one component, by position ("stage.component"), so equal names never mix. */
export type ResolvedOption = Optimization & { componentKey: string };

export type Combination = {
  names: string[];
  savingMs: number;
  costFactor: number;
  costPct: number;
  endToEndMs: number;
};

const normalName = (name: string) => name.trim().toLowerCase();

/**
 * Ties each option to the component it names: "Network", or "Ingress / Network" when several
 * stages have a component of that name. Options that name none, or several, are set aside with
 * the reason.
 */
export function resolveOptions(
  catalog: readonly Optimization[],
  pipeline: Pipeline,
): { applicable: ResolvedOption[]; notApplicable: { name: string; reason: string }[] } {
  const components = pipeline.flatMap((stage, s) =>
    stage.components.map((c, i) => ({ key: `${s}.${i}`, name: c.name, qualified: `${stage.name} / ${c.name}` })),
  );
  const applicable: ResolvedOption[] = [];
  const notApplicable: { name: string; reason: string }[] = [];
  for (const option of catalog) {
    const wanted = normalName(option.component);
    const byQualified = components.filter((c) => normalName(c.qualified) === wanted);
    const matches = byQualified.length ? byQualified : components.filter((c) => normalName(c.name) === wanted);
    if (matches.length === 1) applicable.push({ ...option, componentKey: matches[0]!.key });
    else if (matches.length === 0)
      notApplicable.push({ name: option.name, reason: `no component called “${option.component}”` });
    else
      notApplicable.push({
        name: option.name,
        reason: `“${option.component}” names ${matches.length} components (${matches.map((m) => m.qualified).join(", ")}): name the stage too`,
      });
  }
  return { applicable, notApplicable };
}

function stageMs(times: readonly number[]): number {
  let max = 0;
  for (const t of times) if (t > max) max = t;
  return max;
}

function totalMs(pipeline: Pipeline, savingOf: (key: string) => number): number {
  return pipeline.reduce(
    (sum, stage, s) => sum + stageMs(stage.components.map((c, i) => Math.max(0, c.ms - savingOf(`${s}.${i}`)))),
    0,
  );
}

export function combine(selected: readonly ResolvedOption[], pipeline: Pipeline): Combination {
  const saving = new Map<string, number>();
  for (const o of selected) saving.set(o.componentKey, (saving.get(o.componentKey) ?? 0) + o.savingMs);
  const before = totalMs(pipeline, () => 0);
  const after = totalMs(pipeline, (key) => saving.get(key) ?? 0);
  const costFactor = selected.reduce((f, o) => f * (1 + o.costPct / 100), 1);
  return {
    names: selected.map((o) => o.name),
    savingMs: before - after,
    costFactor,
    costPct: (costFactor - 1) * 100,
    endToEndMs: after,
  };
}

/** Overall speedup from making a share P of the time S times faster: 1 / ((1 − P) + P / S). */
export function amdahlSpeedup(share: number, speedup: number): number {
  return 1 / (1 - share + share / speedup);
}

/** The most any optimization of one component can give: removing it entirely, 1 / (1 − P). */
export function amdahlCeiling(componentMs: number, totalMs: number): number {
  const share = componentMs / totalMs;
  return share >= 1 ? Number.POSITIVE_INFINITY : 1 / (1 - share);
}

export type TradeoffPoint = { name: string; latencyMs: number; costPct: number };

/** Points no other point beats on both axes (lower latency change and lower cost change). */
export function paretoFrontier<T extends TradeoffPoint>(points: T[]): T[] {
  return points
    .filter(
      (p) =>
        !points.some(
          (q) =>
            q !== p &&
            q.latencyMs <= p.latencyMs &&
            q.costPct <= p.costPct &&
            (q.latencyMs < p.latencyMs || q.costPct < p.costPct),
        ),
    )
    .sort((a, b) => a.latencyMs - b.latencyMs);
}

export type PlanGoal =
  { kind: "max-saving-under-cost"; maxCostPct: number } | { kind: "cheapest-meeting-target"; targetMs: number };

/** Options searched exhaustively: 2^20 combinations, a few tens of milliseconds. */
export const PLANNER_LIMIT = 20;

export type PlanResult = {
  best: Combination | null;
  /** The options the search covered: every subset of them was tried. */
  considered: ResolvedOption[];
  /** Applicable options beyond PLANNER_LIMIT, not searched. */
  leftOut: ResolvedOption[];
  notApplicable: { name: string; reason: string }[];
};

type Candidate = { mask: number; savingMs: number; costFactor: number; endToEndMs: number };

const MS_EPSILON = 1e-6;
const FACTOR_EPSILON = 1e-12;

/** The goal as two ceilings, so the search's inner loop compares numbers only. */
function limitsOf(goal: PlanGoal): { maxCostFactor: number; maxEndToEndMs: number } {
  return goal.kind === "max-saving-under-cost"
    ? { maxCostFactor: 1 + (goal.maxCostPct + 1e-9) / 100, maxEndToEndMs: Infinity }
    : { maxCostFactor: Infinity, maxEndToEndMs: goal.targetMs + MS_EPSILON };
}

function isFeasible(c: Pick<Candidate, "costFactor" | "endToEndMs">, limits: ReturnType<typeof limitsOf>): boolean {
  return c.costFactor <= limits.maxCostFactor && c.endToEndMs <= limits.maxEndToEndMs;
}

function bitCount(mask: number): number {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n++;
  return n;
}

/** A total order: the goal's measure, then the other one, then fewer options, then catalog order. */
function isBetter(a: Candidate, b: Candidate | null, goal: PlanGoal): boolean {
  if (!b) return true;
  const saving = a.savingMs - b.savingMs;
  const cost = a.costFactor - b.costFactor;
  const bySaving = saving > MS_EPSILON ? 1 : saving < -MS_EPSILON ? -1 : 0;
  const byCost = cost < -FACTOR_EPSILON ? 1 : cost > FACTOR_EPSILON ? -1 : 0;
  const [first, second] = goal.kind === "max-saving-under-cost" ? [bySaving, byCost] : [byCost, bySaving];
  if (first) return first > 0;
  if (second) return second > 0;
  const fewer = bitCount(b.mask) - bitCount(a.mask);
  if (fewer) return fewer > 0;
  return a.mask < b.mask;
}

function select(options: readonly ResolvedOption[], mask: number): ResolvedOption[] {
  return options.filter((_, i) => mask & (1 << i));
}

/**
 * Every subset of the options, in Gray-code order: each step adds or removes one option, so only
 * that option's component and stage are recomputed, and cost factors come from a table of subset
 * products. 2^20 subsets take tens of milliseconds instead of the seconds a fresh combine() per
 * subset would.
 */
function searchAll(options: readonly ResolvedOption[], pipeline: Pipeline, goal: PlanGoal): Candidate | null {
  const n = options.length;
  const keyIndex = new Map<string, number>();
  const base: number[] = [];
  const stageOf: number[] = [];
  const stageMembers: number[][] = pipeline.map((stage, s) =>
    stage.components.map((c, i) => {
      keyIndex.set(`${s}.${i}`, base.length);
      stageOf.push(s);
      base.push(c.ms);
      return base.length - 1;
    }),
  );
  const componentOf = options.map((o) => keyIndex.get(o.componentKey)!);
  const optionsOn: number[][] = base.map(() => []);
  componentOf.forEach((c, i) => optionsOn[c]!.push(i));

  const factor = options.map((o) => 1 + o.costPct / 100);
  const product = new Float64Array(1 << n);
  product[0] = 1;
  for (let m = 1; m < 1 << n; m++) {
    const low = m & -m;
    product[m] = product[m ^ low]! * factor[31 - Math.clz32(low)]!;
  }
  const savingOf = options.map((o) => o.savingMs);

  const time = Float64Array.from(base, (ms) => Math.max(0, ms));
  const stageTime = Float64Array.from(stageMembers, (members) => stageMs(members.map((c) => time[c]!)));
  const baseTotal = stageTime.reduce((a, b) => a + b, 0);
  let total = baseTotal;
  let best: Candidate | null = null;
  // Allocation-free inner loop: a candidate object is made only when it beats the best so far.
  const limits = limitsOf(goal);
  const consider = (mask: number) => {
    const costFactor = product[mask]!;
    if (!isFeasible({ costFactor, endToEndMs: total }, limits)) return;
    const candidate = { mask, savingMs: baseTotal - total, costFactor, endToEndMs: total };
    if (isBetter(candidate, best, goal)) best = candidate;
  };
  let mask = 0;
  consider(mask);
  for (let step = 1; step < 1 << n; step++) {
    const option = 31 - Math.clz32(step & -step);
    mask ^= 1 << option;
    const c = componentOf[option]!;
    let saving = 0;
    const on = optionsOn[c]!;
    for (let k = 0; k < on.length; k++) if (mask & (1 << on[k]!)) saving += savingOf[on[k]!]!;
    time[c] = Math.max(0, base[c]! - saving);
    const s = stageOf[c]!;
    const members = stageMembers[s]!;
    let updated = 0;
    for (let k = 0; k < members.length; k++) if (time[members[k]!]! > updated) updated = time[members[k]!]!;
    total += updated - stageTime[s]!;
    stageTime[s] = updated;
    consider(mask);
  }
  return best;
}

/** The best subset of the catalog for the goal: exhaustive over the first PLANNER_LIMIT applicable options. */
export function plan(catalog: readonly Optimization[], pipeline: Pipeline, goal: PlanGoal): PlanResult {
  const { applicable, notApplicable } = resolveOptions(catalog, pipeline);
  const considered = applicable.slice(0, PLANNER_LIMIT);
  const found = searchAll(considered, pipeline, goal);
  return {
    best: found && combine(select(considered, found.mask), pipeline),
    considered,
    leftOut: applicable.slice(PLANNER_LIMIT),
    notApplicable,
  };
}

/** The same answer by a fresh combine() of every subset: the reference the fast search is tested against. */
export function planByBruteForce(
  catalog: readonly Optimization[],
  pipeline: Pipeline,
  goal: PlanGoal,
): Combination | null {
  const options = resolveOptions(catalog, pipeline).applicable.slice(0, PLANNER_LIMIT);
  const limits = limitsOf(goal);
  let best: Candidate | null = null;
  for (let mask = 0; mask < 1 << options.length; mask++) {
    const c = combine(select(options, mask), pipeline);
    const candidate = { mask, savingMs: c.savingMs, costFactor: c.costFactor, endToEndMs: c.endToEndMs };
    if (isFeasible(candidate, limits) && isBetter(candidate, best, goal)) best = candidate;
  }
  return best && combine(select(options, (best as Candidate).mask), pipeline);
}
