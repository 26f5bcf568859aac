// Combining latency optimizations honestly: savings on different components add, savings on
// one component cannot exceed that component's time, cost factors multiply. Amdahl's law gives
// the ceiling of speeding up any one component.

export type Optimization = { name: string; component: string; savingMs: number; costPct: number };

export type Combination = {
  names: string[];
  savingMs: number;
  costFactor: number;
  costPct: number;
  endToEndMs: number;
};

export function combine(selected: Optimization[], componentMs: Record<string, number>): Combination {
  const perComponent = new Map<string, number>();
  for (const o of selected) perComponent.set(o.component, (perComponent.get(o.component) ?? 0) + o.savingMs);
  let savingMs = 0;
  for (const [component, saving] of perComponent) savingMs += Math.min(saving, componentMs[component] ?? 0);
  const costFactor = selected.reduce((f, o) => f * (1 + o.costPct / 100), 1);
  const totalMs = Object.values(componentMs).reduce((a, b) => a + b, 0);
  return {
    names: selected.map((o) => o.name),
    savingMs,
    costFactor,
    costPct: (costFactor - 1) * 100,
    endToEndMs: totalMs - savingMs,
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

/** Best subset of the catalog for the goal, by exhaustive search (catalogs are small: ≤ 20 options). */
export function plan(catalog: Optimization[], componentMs: Record<string, number>, goal: PlanGoal): Combination | null {
  if (catalog.length > 20)
    throw new RangeError("The planner searches every combination; keep the catalog to 20 options or fewer");
  let best: Combination | null = null;
  for (let mask = 0; mask < 1 << catalog.length; mask++) {
    const combination = combine(
      catalog.filter((_, i) => mask & (1 << i)),
      componentMs,
    );
    if (goal.kind === "max-saving-under-cost") {
      if (combination.costPct > goal.maxCostPct + 1e-9) continue;
      if (
        !best ||
        combination.savingMs > best.savingMs ||
        (combination.savingMs === best.savingMs && combination.costFactor < best.costFactor)
      )
        best = combination;
    } else {
      if (combination.endToEndMs > goal.targetMs + 1e-9) continue;
      if (
        !best ||
        combination.costFactor < best.costFactor ||
        (combination.costFactor === best.costFactor && combination.savingMs > best.savingMs)
      )
        best = combination;
    }
  }
  return best;
}
