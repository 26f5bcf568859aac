"use client";

import type { UseFormRegisterReturn } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { TextInput } from "@/components/ui/primitives";
import { PRESETS, type PresetId } from "@/lib/domain/presets";
import type { DiscoveredHistogram } from "@/lib/services/discovery";

/**
 * A histogram name, suggesting what the connected Prometheus has (when discovery answers) and the
 * preset's real metric names (vLLM, SGLang, OpenTelemetry…).
 */
export function MetricField({
  listId,
  preset,
  discovered = [],
  error,
  input,
}: {
  listId: string;
  preset: PresetId | "none" | undefined;
  discovered?: DiscoveredHistogram[];
  error?: string;
  input: UseFormRegisterReturn;
}) {
  const known = new Set(discovered.map((h) => h.metric));
  const options = [
    ...discovered.map((h) => ({
      metric: h.metric,
      label: [h.kind, h.unit, h.preset ? PRESETS[h.preset].label : null, h.role].filter(Boolean).join(" · "),
    })),
    ...(preset && preset !== "none" ? PRESETS[preset].metrics.filter((m) => !known.has(m.metric) && !m.legacy) : []),
  ];
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
