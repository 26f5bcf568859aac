import { PERCENTILES, type BudgetComponent, type BudgetDocument, type BudgetStage } from "./budget";

// Three-way merge for "someone saved while I was editing": start from their version and
// re-apply what I changed relative to the version we both started from. Stages and
// components are matched by name. Where both sides changed the same value, mine wins and the
// clash is reported so the user can review it before saving.

export type MergeResult = { merged: BudgetDocument; clashes: string[] };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function pick<T>(base: T, mine: T, theirs: T, label: string, clashes: string[]): T {
  if (same(mine, base)) return theirs;
  if (!same(theirs, base) && !same(theirs, mine)) clashes.push(label);
  return mine;
}

function componentsByName(doc: BudgetDocument): Map<string, BudgetComponent> {
  return new Map(doc.stages.flatMap((s) => s.components.map((c) => [c.name, c] as const)));
}

function mergeComponent(
  base: BudgetComponent,
  mine: BudgetComponent,
  theirs: BudgetComponent,
  clashes: string[],
): BudgetComponent {
  const budgetMs = { ...theirs.budgetMs };
  for (const key of PERCENTILES)
    budgetMs[key] = pick(base.budgetMs[key], mine.budgetMs[key], theirs.budgetMs[key], `${mine.name} ${key}`, clashes);
  return {
    name: theirs.name,
    budgetMs,
    source: pick(base.source, mine.source, theirs.source, `${mine.name} source`, clashes),
  };
}

export function mergeBudgets(base: BudgetDocument, mine: BudgetDocument, theirs: BudgetDocument): MergeResult {
  const clashes: string[] = [];
  const baseComponents = componentsByName(base);
  const mineComponents = componentsByName(mine);
  const baseStages = new Set(base.stages.map((s) => s.name));
  const mineStages = new Set(mine.stages.map((s) => s.name));

  // Their structure, minus what I removed, with my edits to components we both still have.
  const stages: BudgetStage[] = theirs.stages
    .filter((stage) => !(baseStages.has(stage.name) && !mineStages.has(stage.name)))
    .map((stage) => ({
      name: stage.name,
      components: stage.components.flatMap((component) => {
        const baseC = baseComponents.get(component.name);
        const mineC = mineComponents.get(component.name);
        if (baseC && !mineC) return [];
        return [baseC && mineC ? mergeComponent(baseC, mineC, component, clashes) : component];
      }),
    }));

  // What I added: components into the stage of the same name, new stages after their predecessor.
  mine.stages.forEach((myStage, position) => {
    const added = myStage.components.filter((c) => !baseComponents.has(c.name));
    if (added.length === 0 && baseStages.has(myStage.name)) return;
    const existing = stages.find((s) => s.name === myStage.name);
    if (existing) {
      for (const c of added) if (!existing.components.some((e) => e.name === c.name)) existing.components.push(c);
      return;
    }
    const predecessor = mine.stages[position - 1]?.name;
    const at = predecessor === undefined ? 0 : stages.findIndex((s) => s.name === predecessor) + 1;
    stages.splice(at > 0 ? at : predecessor === undefined ? 0 : stages.length, 0, {
      name: myStage.name,
      components: added.length ? added : myStage.components,
    });
  });

  return {
    merged: {
      indicator: pick(base.indicator, mine.indicator, theirs.indicator, "indicator", clashes),
      targetMs: pick(base.targetMs, mine.targetMs, theirs.targetMs, "target", clashes),
      quantile: pick(base.quantile, mine.quantile, theirs.quantile, "percentile", clashes),
      stages: stages.filter((s) => s.components.length > 0),
    },
    clashes,
  };
}
