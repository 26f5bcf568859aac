"use client";

import { useFormContext } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Select, TextInput } from "@/components/ui/primitives";
import { parseMs } from "./form-model";

type TargetValues = { indicator: string; quantile: number; targetMs: number | null };

/** The end-to-end target (indicator, percentile, milliseconds): the budget editor's and the new-service form's. */
export function TargetFields() {
  const {
    register,
    formState: { errors },
  } = useFormContext<TargetValues>();
  return (
    <fieldset className="grid grid-cols-3 gap-3">
      <legend className="sr-only">End-to-end target</legend>
      <Field label="Indicator" error={errors.indicator?.message}>
        {(control) => <TextInput {...control} {...register("indicator")} />}
      </Field>
      <Field label="Percentile">
        {(control) => (
          <Select {...control} {...register("quantile", { setValueAs: Number })}>
            <option value={0.5}>p50</option>
            <option value={0.95}>p95</option>
            <option value={0.99}>p99</option>
          </Select>
        )}
      </Field>
      <Field label="Target (ms)" error={errors.targetMs?.message}>
        {(control) => <TextInput {...control} inputMode="decimal" {...register("targetMs", { setValueAs: parseMs })} />}
      </Field>
    </fieldset>
  );
}
