import type { BudgetDocument, MetricSource } from "@/lib/domain/budget";
import type { PresetId } from "@/lib/domain/presets";
import type { HistogramKind, HistogramUnit } from "@/lib/domain/units";

// The editor's form values: like a BudgetDocument, but matchers are rows (so they can be
// added and removed) and every field holds what the user typed until it is validated.

export type MatcherRow = { name: string; value: string };
/** "auto": the unit is read from the metric's name (else seconds); the source stores no unit. */
export type SourceForm = {
  preset: PresetId | "none";
  metric: string;
  matchers: MatcherRow[];
  unit: HistogramUnit | "auto";
  kind: HistogramKind;
};
export type ComponentForm = {
  name: string;
  budgetMs: { p50: number | null; p95: number | null; p99: number | null };
  source: SourceForm;
};
export type StageForm = { name: string; components: ComponentForm[] };
export type BudgetForm = {
  indicator: string;
  targetMs: number | null;
  quantile: number;
  stages: StageForm[];
  endToEndSource: SourceForm;
  message: string;
};

export function sourceToForm(source: MetricSource | null): SourceForm {
  if (!source) return { preset: "none", metric: "", matchers: [], unit: "auto", kind: "classic" };
  return {
    preset: source.preset as PresetId,
    metric: source.metric,
    matchers: Object.entries(source.matchers).map(([name, value]) => ({ name, value })),
    unit: source.unit ?? "auto",
    kind: source.kind ?? "classic",
  };
}

export function toForm(doc: BudgetDocument): BudgetForm {
  return {
    indicator: doc.indicator,
    targetMs: doc.targetMs,
    quantile: doc.quantile,
    message: "",
    endToEndSource: sourceToForm(doc.endToEndSource ?? null),
    stages: doc.stages.map((stage) => ({
      name: stage.name,
      components: stage.components.map((c) => ({
        name: c.name,
        budgetMs: { ...c.budgetMs },
        source: sourceToForm(c.source),
      })),
    })),
  };
}

function finiteOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

export function sourceFromForm(source: SourceForm | undefined): MetricSource | null {
  if (!source || source.preset === "none") return null;
  return {
    preset: source.preset,
    metric: source.metric,
    matchers: Object.fromEntries(
      (source.matchers ?? []).filter((m) => m.name || m.value).map((m) => [m.name, m.value]),
    ),
    ...(source.unit && source.unit !== "auto" && { unit: source.unit }),
    ...(source.kind === "native" && { kind: source.kind }),
  };
}

/** Form values as the API expects them; invalid numbers become null and are caught by validation. */
export function fromForm(form: BudgetForm): BudgetDocument {
  return {
    indicator: form.indicator,
    endToEndSource: sourceFromForm(form.endToEndSource),
    targetMs: finiteOrNull(form.targetMs) ?? Number.NaN,
    quantile: form.quantile,
    stages: (form.stages ?? []).map((stage) => ({
      name: stage.name,
      components: (stage.components ?? []).map((c) => ({
        name: c.name,
        budgetMs: {
          p50: finiteOrNull(c.budgetMs?.p50),
          p95: finiteOrNull(c.budgetMs?.p95),
          p99: finiteOrNull(c.budgetMs?.p99),
        },
        source: sourceFromForm(c.source),
      })),
    })),
  };
}

/**
 * Maps an API field path to the form's. Matchers are an object in the API and rows in the form,
 * so their errors attach to the matcher list as a whole.
 */
export function formPath(apiPath: string): string {
  return apiPath.replace(/(^|\.)(matchers)\..*$/, "$1$2");
}

/** A number input's value: empty means "no budget", anything unparsable stays NaN for validation. */
export function parseMs(raw: unknown): number | null {
  if (raw === "" || raw === null || raw === undefined) return null;
  const n = Number(String(raw).replace(/\s|_/g, "").replace(/,/g, "."));
  return n;
}

/**
 * Moves component `c` of stage `from` into stage `to` (as a parallel component), or into a new
 * stage right after `from`. A stage left without components is removed.
 */
export function moveComponent(stages: StageForm[], from: number, c: number, to: number | "new"): StageForm[] {
  const next = stages.map((s) => ({ ...s, components: [...s.components] }));
  const [moved] = next[from]!.components.splice(c, 1);
  if (!moved) return stages;
  if (to === "new") {
    const taken = new Set(next.filter((s) => s.components.length > 0).map((s) => s.name.toLowerCase()));
    let name = moved.name;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${moved.name} ${n}`;
    next.splice(from + 1, 0, { name, components: [moved] });
  } else {
    next[to]!.components.push(moved);
  }
  return next.filter((s) => s.components.length > 0);
}
