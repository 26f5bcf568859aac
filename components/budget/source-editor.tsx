"use client";

import { get, useFieldArray, useFormContext, useWatch, type FieldError as RhfFieldError } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { MetricField } from "./metric-field";
import { Button, FieldError, Select, TextInput } from "@/components/ui/primitives";
import { PRESETS, PRESET_IDS } from "@/lib/domain/presets";
import type { SourceForm } from "./form-model";

type SourceErrors = { metric?: RhfFieldError; matchers?: RhfFieldError & { root?: RhfFieldError } };

/**
 * Where live latency comes from: a preset or any Prometheus histogram plus label matchers. Used
 * by any form that holds a SourceForm at `name` (a budget component, the budget's end-to-end
 * histogram, an SLO); the paths are typed as one such form's.
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
  const { register, control, formState } = useFormContext<{ source: SourceForm }>();
  const preset = useWatch({ control, name: `${base}.preset` });
  const matchers = useFieldArray({ control, name: `${base}.matchers` });
  const errors = get(formState.errors, base) as SourceErrors | undefined;

  return (
    <div className="mt-2 grid gap-2 rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-950">
      <div className="grid grid-cols-2 items-start gap-2">
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
              error={errors?.metric?.message}
              input={register(`${base}.metric`)}
            />
            <fieldset className="col-span-2 space-y-1">
              <legend className="font-medium">Label matchers</legend>
              {matchers.fields.map((field, m) => (
                <div key={field.id} className="flex items-center gap-1">
                  <TextInput
                    aria-label={`Label name ${m + 1}`}
                    className="font-mono"
                    placeholder="stage"
                    {...register(`${base}.matchers.${m}.name`)}
                  />
                  <span aria-hidden>=</span>
                  <TextInput
                    aria-label={`Label value ${m + 1}`}
                    className="font-mono"
                    placeholder="rag"
                    {...register(`${base}.matchers.${m}.value`)}
                  />
                  <Button variant="ghost" aria-label={`Remove matcher ${m + 1}`} onClick={() => matchers.remove(m)}>
                    ✕
                  </Button>
                </div>
              ))}
              <Button variant="ghost" onClick={() => matchers.append({ name: "", value: "" })}>
                + matcher
              </Button>
              <FieldError
                id={`${id}-matchers-error`}
                message={errors?.matchers?.message ?? errors?.matchers?.root?.message}
              />
            </fieldset>
          </>
        )}
      </div>
    </div>
  );
}
