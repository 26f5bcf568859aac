"use client";

import { get, useFieldArray, useFormContext, useWatch, type FieldError as RhfFieldError } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Button, FieldError, Select, TextInput } from "@/components/ui/primitives";
import { formatMeasuredMs } from "@/lib/domain/format";
import { PRESETS, PRESET_IDS } from "@/lib/domain/presets";
import { unitFromName, type HistogramUnit } from "@/lib/domain/units";
import { sourceFromForm, type SourceForm } from "./form-model";
import { MetricField } from "./metric-field";
import { useDiscovery, useSourcePreview } from "./use-telemetry";

type SourceErrors = { metric?: RhfFieldError; matchers?: RhfFieldError & { root?: RhfFieldError } };

/**
 * Where live latency comes from: a preset or any Prometheus histogram plus label matchers. Used
 * by any form that holds a SourceForm at `name` (a budget component, the budget's end-to-end
 * histogram, an SLO); the paths are typed as one such form's. Metric names, label names and
 * label values are suggested from what the connected Prometheus has (discovery), and the
 * source's live percentiles are shown as it is edited.
 */
export function SourceEditor({
  name,
  id,
  label = "Metric source",
  allowNone = true,
}: {
  name: string;
  id: string;
  label?: string;
  allowNone?: boolean;
}) {
  const base = name as "source";
  const { register, control, formState, setValue } = useFormContext<{ source: SourceForm }>();
  const source = useWatch({ control, name: base });
  const preset = source?.preset;
  const matchers = useFieldArray({ control, name: `${base}.matchers` });
  const errors = get(formState.errors, base) as SourceErrors | undefined;
  const discovery = useDiscovery(preset && preset !== "none" ? (source?.metric ?? "") : "");
  const discovered = discovery.data?.histograms ?? [];
  const picked = discovered.find((h) => h.metric === source?.metric) ?? null;
  const complete = source && preset !== "none" && source.metric ? sourceFromForm(source) : null;
  const preview = useSourcePreview(complete);
  const nameUnit = source?.metric ? unitFromName(source.metric) : null;

  /** A discovered histogram was picked: its preset and kind come with it. */
  function onMetricChange(metric: string) {
    const found = discovered.find((h) => h.metric === metric);
    if (!found) return;
    if (found.preset && found.preset !== preset) setValue(`${base}.preset`, found.preset, { shouldDirty: true });
    setValue(`${base}.kind`, found.kind, { shouldDirty: true });
    if (found.unitFrom === "metadata") setValue(`${base}.unit`, found.unit, { shouldDirty: true });
  }

  const metricInput = register(`${base}.metric`, { onChange: (e) => onMetricChange(e.target.value) });
  return (
    <div className="mt-2 grid min-w-0 gap-2 rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-950">
      <div className="grid min-w-0 grid-cols-1 items-start gap-2 sm:grid-cols-2">
        <Field label={label}>
          {(control) => (
            <Select {...control} {...register(`${base}.preset`)}>
              {allowNone && <option value="none">None (budget only)</option>}
              {PRESET_IDS.map((p) => (
                <option key={p} value={p}>
                  {PRESETS[p].label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {preset !== "none" && (
          <>
            <MetricField
              listId={`${id}-metrics`}
              preset={preset}
              discovered={discovered}
              error={errors?.metric?.message}
              input={metricInput}
            />
            <Field label="Unit" hint={picked?.help ?? undefined}>
              {(control) => (
                <Select {...control} {...register(`${base}.unit`)}>
                  <option value="auto">From the name ({nameUnit ?? "seconds"})</option>
                  <option value="seconds">Seconds</option>
                  <option value="milliseconds">Milliseconds</option>
                  <option value="microseconds">Microseconds</option>
                  <option value="nanoseconds">Nanoseconds</option>
                </Select>
              )}
            </Field>
            <Field label="Kind">
              {(control) => (
                <Select {...control} {...register(`${base}.kind`)}>
                  <option value="classic">Classic (_bucket series)</option>
                  <option value="native">Native histogram</option>
                </Select>
              )}
            </Field>
            <fieldset className="min-w-0 space-y-1 sm:col-span-2">
              <legend className="font-medium">Label matchers</legend>
              <datalist id={`${id}-label-names`}>
                {Object.keys(picked?.labels ?? {}).map((label) => (
                  <option key={label} value={label} />
                ))}
              </datalist>
              {matchers.fields.map((field, m) => {
                const labelName = source?.matchers?.[m]?.name ?? "";
                const values = picked?.labels[labelName] ?? [];
                return (
                  <div key={field.id} className="flex min-w-0 items-center gap-1">
                    <TextInput
                      aria-label={`Label name ${m + 1}`}
                      className="min-w-0 font-mono"
                      placeholder="stage"
                      list={`${id}-label-names`}
                      {...register(`${base}.matchers.${m}.name`)}
                    />
                    <span aria-hidden>=</span>
                    <TextInput
                      aria-label={`Label value ${m + 1}`}
                      className="min-w-0 font-mono"
                      placeholder="rag"
                      list={`${id}-label-values-${m}`}
                      {...register(`${base}.matchers.${m}.value`)}
                    />
                    <datalist id={`${id}-label-values-${m}`}>
                      {values.map((value) => (
                        <option key={value} value={value} />
                      ))}
                    </datalist>
                    <Button variant="ghost" aria-label={`Remove matcher ${m + 1}`} onClick={() => matchers.remove(m)}>
                      ✕
                    </Button>
                  </div>
                );
              })}
              <Button variant="ghost" onClick={() => matchers.append({ name: "", value: "" })}>
                + matcher
              </Button>
              <FieldError
                id={`${id}-matchers-error`}
                message={errors?.matchers?.message ?? errors?.matchers?.root?.message}
              />
            </fieldset>
            <SourcePreviewLine id={id} preview={preview} hasSource={complete !== null} />
            <UnitWarning
              id={id}
              check={preview.data?.unitCheck ?? null}
              discovered={picked}
              onUse={(unit) => setValue(`${base}.unit`, unit, { shouldDirty: true })}
            />
          </>
        )}
      </div>
    </div>
  );
}

/**
 * When the histogram's bucket bounds cannot be latency bounds in the unit they are read in (from
 * the live preview, else from discovery): one sentence and a one-click switch to the unit they fit.
 */
function UnitWarning({
  id,
  check,
  discovered,
  onUse,
}: {
  id: string;
  check: { message: string; suggestedUnit: HistogramUnit | null } | null;
  discovered: { unitWarning: string | null; suggestedUnit: HistogramUnit | null } | null;
  onUse: (unit: HistogramUnit) => void;
}) {
  const message = check?.message ?? discovered?.unitWarning ?? null;
  const suggested = check ? check.suggestedUnit : (discovered?.suggestedUnit ?? null);
  if (!message) return null;
  return (
    <div
      id={`${id}-unit-warning`}
      role="status"
      className="flex flex-wrap items-center gap-2 rounded-md bg-amber-50 p-2 text-xs text-amber-900 sm:col-span-2 dark:bg-amber-950 dark:text-amber-100"
    >
      <span>{message}</span>
      {suggested && (
        <Button variant="ghost" onClick={() => onUse(suggested)}>
          Use {suggested}
        </Button>
      )}
    </div>
  );
}

function SourcePreviewLine({
  id,
  preview,
  hasSource,
}: {
  id: string;
  preview: ReturnType<typeof useSourcePreview>;
  hasSource: boolean;
}) {
  if (!hasSource) return null;
  const data = preview.data;
  let text: string;
  if (preview.isError) text = `No live reading: ${preview.error.message}`;
  else if (!data) text = "Reading the live percentiles…";
  else if (data.percentilesMs.p50 === null) text = "No observations in the last hour: check the name and the matchers.";
  else
    text = `Live now (last ${data.window}): ${(["p50", "p95", "p99"] as const)
      .map((key) => `${key} ${formatMeasuredMs(data.percentilesMs[key], data.lowerBounds.includes(key))}`)
      .join(" · ")} — ${data.kind}, ${data.unit}, ${data.boundsMs.length} bucket bounds`;
  return (
    <p
      id={`${id}-preview`}
      aria-live="polite"
      title={
        data?.boundsMs.length
          ? `Bucket bounds (ms): ${data.boundsMs.map((b) => Math.round(b * 1000) / 1000).join(", ")}`
          : undefined
      }
      className="text-xs text-slate-600 sm:col-span-2 dark:text-slate-400"
    >
      {text}
    </p>
  );
}
