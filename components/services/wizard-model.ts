import type { BudgetStage, MetricSource } from "@/lib/domain/budget";
import { PRESETS, type PresetId } from "@/lib/domain/presets";
import type { Proposal } from "@/lib/domain/proposal";
import type { DiscoveredHistogram } from "@/lib/services/discovery";

// The new-service wizard's model, apart from its React: picked histograms become sources, picked
// stages (in order, some in parallel with the one before) become a pipeline, and the accepted
// proposal becomes the first budget revision.

/** One picked stage; `parallel` runs it beside the stage before it. */
export type DraftStage = { key: string; name: string; source: MetricSource; parallel: boolean };

export type Pipeline = { name: string; components: { name: string; source: MetricSource }[] }[];

/** "Chat API" → "chat-api": the slug a name suggests. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
}

/** The label that names a stage inside one shared histogram: the preset's, else a usual one it has. */
export function componentLabelOf(histogram: DiscoveredHistogram): string | null {
  const byPreset = histogram.preset ? PRESETS[histogram.preset as PresetId].componentLabel : undefined;
  if (byPreset && histogram.labels[byPreset]) return byPreset;
  return ["span_name", "stage", "component", "operation"].find((l) => histogram.labels[l]?.length) ?? null;
}

/** A histogram as a source, narrowed by the pinned label values it has. */
export function sourceOf(
  histogram: DiscoveredHistogram,
  pins: Record<string, string>,
  extra: Record<string, string> = {},
): MetricSource {
  const matchers = Object.fromEntries(
    Object.entries(pins).filter(([label, value]) => value && histogram.labels[label]),
  );
  return {
    preset: histogram.preset ?? "custom",
    metric: histogram.metric,
    matchers: { ...matchers, ...extra },
    ...(histogram.unitFrom === "metadata" && { unit: histogram.unit }),
    ...(histogram.kind === "native" && { kind: "native" as const }),
  };
}

/** Stages from a shared histogram's label values (span names, stage labels), in the order given. */
export function stagesByLabel(
  histogram: DiscoveredHistogram,
  label: string,
  values: string[],
  pins: Record<string, string>,
): DraftStage[] {
  const others = Object.fromEntries(Object.entries(pins).filter(([name]) => name !== label));
  return values.map((value) => ({
    key: `${histogram.metric}|${label}=${value}`,
    name: value,
    source: sourceOf(histogram, others, { [label]: value }),
    parallel: false,
  }));
}

/** Moves the stage at `from` to `to`; the first stage cannot run in parallel with nothing. */
export function moveStage(stages: DraftStage[], from: number, to: number): DraftStage[] {
  if (from === to || from < 0 || to < 0 || from >= stages.length || to >= stages.length) return stages;
  const next = [...stages];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next.map((s, i) => (i === 0 ? { ...s, parallel: false } : s));
}

/** Picked stages as a pipeline: a parallel stage joins the one before it. */
export function toPipeline(stages: DraftStage[]): Pipeline {
  const pipeline: Pipeline = [];
  for (const stage of stages) {
    const component = { name: stage.name, source: stage.source };
    const last = pipeline[pipeline.length - 1];
    if (stage.parallel && last) {
      last.components.push(component);
      last.name = last.components.map((c) => c.name).join(" ∥ ");
    } else pipeline.push({ name: stage.name, components: [component] });
  }
  return pipeline;
}

/** The pipeline with the proposal's budgets: what the first revision saves. */
export function withProposedBudgets(pipeline: Pipeline, proposal: Pick<Proposal, "stages">): BudgetStage[] {
  return pipeline.map((stage, s) => ({
    name: stage.name,
    components: stage.components.map((c, i) => ({
      name: c.name,
      source: c.source,
      budgetMs: proposal.stages[s]?.components[i]?.budgetMs ?? { p50: null, p95: null, p99: null },
    })),
  }));
}
