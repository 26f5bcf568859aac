"use client";

import type { UseFormRegisterReturn } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { TextInput } from "@/components/ui/primitives";
import { PRESETS, type PresetId } from "@/lib/domain/presets";

/** A histogram name, suggesting the preset's real metric names (vLLM, TGI, OpenTelemetry…). */
export function MetricField({
  listId,
  preset,
  error,
  input,
}: {
  listId: string;
  preset: PresetId | "none" | undefined;
  error?: string;
  input: UseFormRegisterReturn;
}) {
  const options = preset && preset !== "none" ? PRESETS[preset].metrics : [];
  return (
    <Field label="Histogram" error={error}>
      {(control) => (
        <>
          <TextInput
            {...control}
            list={listId}
            className="font-mono"
            placeholder="llm_stage_duration_seconds"
            {...input}
          />
          <datalist id={listId}>
            {options.map((m) => (
              <option key={m.metric} value={m.metric}>
                {m.label}
              </option>
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
