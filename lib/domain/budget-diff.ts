import { PERCENTILES, type BudgetComponent, type BudgetDocument, type MetricSource } from "./budget";
import { formatMs } from "./format";

// Readable changes between two saved states of a budget, for the revision history.
// Stages and components are matched by name; a rename reads as one removed and one added.

export type BudgetChange = {
  kind:
    | "target"
    | "stage-added"
    | "stage-removed"
    | "stage-moved"
    | "component-added"
    | "component-removed"
    | "component-moved"
    | "budget"
    | "source";
  /** Where the change is, e.g. "RAG retrieval" or "Safety ∥ RAG". */
  subject: string;
  summary: string;
};

function describeSource(source: MetricSource | null): string {
  if (!source) return "none";
  const matchers = Object.entries(source.matchers)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(",");
  return `${source.metric}{${matchers}}`;
}

function componentLocations(doc: BudgetDocument): Map<string, { stage: string; component: BudgetComponent }> {
  const map = new Map<string, { stage: string; component: BudgetComponent }>();
  for (const stage of doc.stages)
    for (const component of stage.components) map.set(component.name, { stage: stage.name, component });
  return map;
}

function msOrNone(value: number | null): string {
  return value === null ? "none" : formatMs(value);
}

export function diffBudgets(before: BudgetDocument | null, after: BudgetDocument): BudgetChange[] {
  const changes: BudgetChange[] = [];
  if (!before) {
    return [
      {
        kind: "target",
        subject: "Budget",
        summary: `Created with target ${after.indicator} ${formatMs(after.targetMs)} and ${after.stages.length} stages`,
      },
    ];
  }
  if (
    before.targetMs !== after.targetMs ||
    before.quantile !== after.quantile ||
    before.indicator !== after.indicator
  ) {
    changes.push({
      kind: "target",
      subject: "Target",
      summary: `${before.indicator} q${before.quantile} < ${formatMs(before.targetMs)} → ${after.indicator} q${after.quantile} < ${formatMs(after.targetMs)}`,
    });
  }

  const fromE2e = describeSource(before.endToEndSource ?? null);
  const toE2e = describeSource(after.endToEndSource ?? null);
  if (fromE2e !== toE2e)
    changes.push({ kind: "source", subject: "End-to-end", summary: `End-to-end source: ${fromE2e} → ${toE2e}` });

  const beforeStages = before.stages.map((s) => s.name);
  const afterStages = after.stages.map((s) => s.name);
  for (const name of afterStages)
    if (!beforeStages.includes(name))
      changes.push({ kind: "stage-added", subject: name, summary: `Added stage “${name}”` });
  for (const name of beforeStages)
    if (!afterStages.includes(name))
      changes.push({ kind: "stage-removed", subject: name, summary: `Removed stage “${name}”` });
  const keptBefore = beforeStages.filter((n) => afterStages.includes(n));
  const keptAfter = afterStages.filter((n) => beforeStages.includes(n));
  keptAfter.forEach((name, i) => {
    if (keptBefore[i] !== name)
      changes.push({
        kind: "stage-moved",
        subject: name,
        summary: `Moved stage “${name}” to position ${afterStages.indexOf(name) + 1}`,
      });
  });

  const beforeComponents = componentLocations(before);
  const afterComponents = componentLocations(after);
  for (const [name, { stage, component }] of afterComponents) {
    const old = beforeComponents.get(name);
    if (!old) {
      changes.push({ kind: "component-added", subject: name, summary: `Added component “${name}” to “${stage}”` });
      continue;
    }
    if (old.stage !== stage)
      changes.push({
        kind: "component-moved",
        subject: name,
        summary: `Moved “${name}” from “${old.stage}” to “${stage}”`,
      });
    for (const key of PERCENTILES) {
      const from = old.component.budgetMs[key];
      const to = component.budgetMs[key];
      if (from !== to)
        changes.push({ kind: "budget", subject: name, summary: `${name} ${key}: ${msOrNone(from)} → ${msOrNone(to)}` });
    }
    const fromSource = describeSource(old.component.source);
    const toSource = describeSource(component.source);
    if (fromSource !== toSource)
      changes.push({ kind: "source", subject: name, summary: `${name} source: ${fromSource} → ${toSource}` });
  }
  for (const [name, { stage }] of beforeComponents) {
    if (!afterComponents.has(name))
      changes.push({
        kind: "component-removed",
        subject: name,
        summary: `Removed component “${name}” from “${stage}”`,
      });
  }
  return changes;
}
