"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useFieldArray, useForm, useWatch, type Resolver } from "react-hook-form";
import { Button, Card, FieldError, Select, TextInput } from "@/components/ui/primitives";
import { PRESETS, PRESET_IDS, type PresetId } from "@/lib/domain/presets";
import { ApiError, apiFetch } from "@/lib/queries/api";
import { liveKeys } from "@/lib/queries/live";
import { sloInputSchema } from "@/lib/schemas/live";
import { fieldPath } from "@/lib/schemas/parse";

type FormValues = {
  name: string;
  indicator: string;
  preset: PresetId;
  metric: string;
  matchers: { name: string; value: string }[];
  thresholdMs: number;
  objective: number;
  windowDays: number;
  thresholdMode: "snap" | "interpolate";
};

function toInput(v: FormValues) {
  return {
    name: v.name,
    indicator: v.indicator,
    source: {
      preset: v.preset,
      metric: v.metric,
      matchers: Object.fromEntries(v.matchers.filter((m) => m.name).map((m) => [m.name, m.value])),
    },
    thresholdMs: v.thresholdMs,
    objective: v.objective,
    windowDays: v.windowDays,
    thresholdMode: v.thresholdMode,
  };
}

const FORM_PATH: Record<string, string> = { "source.metric": "metric", "source.preset": "preset" };
const formPathOf = (path: string) => FORM_PATH[path] ?? (path.startsWith("source.matchers") ? "matchers" : path);

const resolver: Resolver<FormValues> = async (values) => {
  const result = sloInputSchema.safeParse(toInput(values));
  if (result.success) return { values, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of result.error.issues)
    errors[formPathOf(fieldPath(issue.path))] ??= { type: "validate", message: issue.message };
  return { values: {}, errors };
};

const num = (v: unknown) => (v === "" ? Number.NaN : Number(v));

export function NewSloForm({
  slug,
  defaultSource,
}: {
  slug: string;
  defaultSource: { preset: string; metric: string; matchers: Record<string, string> } | null;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [bounds, setBounds] = useState<number[] | string | null>(null);
  const form = useForm<FormValues>({
    resolver,
    defaultValues: {
      name: "",
      indicator: "TTFT",
      preset: (defaultSource?.preset as PresetId) ?? "generic",
      metric: defaultSource?.metric ?? "",
      matchers: Object.entries(defaultSource?.matchers ?? {}).map(([name, value]) => ({ name, value })),
      thresholdMs: 700,
      objective: 0.99,
      windowDays: 28,
      thresholdMode: "snap",
    },
  });
  const matchers = useFieldArray({ control: form.control, name: "matchers" });
  const { errors } = form.formState;
  const preset = useWatch({ control: form.control, name: "preset" });
  const threshold = useWatch({ control: form.control, name: "thresholdMs" });

  const create = useMutation({
    mutationFn: (values: FormValues) =>
      apiFetch(`/api/services/${slug}/slos`, { method: "POST", json: toInput(values) }),
    onSuccess: async () => {
      form.reset();
      setBounds(null);
      await queryClient.invalidateQueries({ queryKey: liveKeys.slos(slug) });
      router.refresh();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.body.fields) {
        for (const [path, message] of Object.entries(error.body.fields))
          form.setError(formPathOf(path) as keyof FormValues, { message });
      }
    },
  });

  async function loadBounds() {
    setBounds("Loading…");
    try {
      const { source } = toInput(form.getValues());
      const result = await apiFetch<{ boundsMs: number[] }>("/api/prometheus/buckets", {
        method: "POST",
        json: { source },
      });
      setBounds(result.boundsMs.length ? result.boundsMs : "No buckets found for this histogram in the last hour.");
    } catch (error) {
      setBounds(error instanceof Error ? error.message : "Could not load the bucket bounds.");
    }
  }

  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold">Add an SLO</h2>
      <form
        noValidate
        className="grid gap-3 text-sm sm:grid-cols-2"
        onSubmit={form.handleSubmit((v) => create.mutate(v))}
        aria-label="New SLO"
      >
        <label className="flex flex-col gap-1">
          SLO name
          <TextInput invalid={!!errors.name} {...form.register("name")} placeholder="TTFT under 700 ms" />
          <FieldError id="slo-name-error" message={errors.name?.message} />
        </label>
        <label className="flex flex-col gap-1">
          Indicator
          <TextInput {...form.register("indicator")} />
        </label>
        <label className="flex flex-col gap-1">
          Histogram preset
          <Select {...form.register("preset")}>
            {PRESET_IDS.map((p) => (
              <option key={p} value={p}>
                {PRESETS[p].label}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          Histogram
          <TextInput className="font-mono" list="slo-metrics" invalid={!!errors.metric} {...form.register("metric")} />
          <datalist id="slo-metrics">
            {PRESETS[preset]?.metrics.map((m) => (
              <option key={m.metric} value={m.metric}>
                {m.label}
              </option>
            ))}
          </datalist>
          <FieldError id="slo-metric-error" message={errors.metric?.message} />
        </label>
        <div className="sm:col-span-2">
          <span>Label matchers</span>
          {matchers.fields.map((field, i) => (
            <div key={field.id} className="mt-1 flex items-center gap-1">
              <TextInput
                aria-label={`SLO label name ${i + 1}`}
                className="font-mono"
                {...form.register(`matchers.${i}.name`)}
              />
              =
              <TextInput
                aria-label={`SLO label value ${i + 1}`}
                className="font-mono"
                {...form.register(`matchers.${i}.value`)}
              />
              <Button variant="ghost" aria-label={`Remove SLO matcher ${i + 1}`} onClick={() => matchers.remove(i)}>
                ✕
              </Button>
            </div>
          ))}
          <Button variant="ghost" onClick={() => matchers.append({ name: "", value: "" })}>
            + matcher
          </Button>
          <FieldError id="slo-matchers-error" message={errors.matchers?.message ?? errors.matchers?.root?.message} />
        </div>
        <label className="flex flex-col gap-1">
          Threshold (ms)
          <TextInput
            inputMode="decimal"
            invalid={!!errors.thresholdMs}
            {...form.register("thresholdMs", { setValueAs: num })}
          />
          <FieldError id="slo-threshold-error" message={errors.thresholdMs?.message} />
        </label>
        <label className="flex flex-col gap-1">
          Objective (share of requests, e.g. 0.99)
          <TextInput
            inputMode="decimal"
            invalid={!!errors.objective}
            {...form.register("objective", { setValueAs: num })}
          />
          <FieldError id="slo-objective-error" message={errors.objective?.message} />
        </label>
        <label className="flex flex-col gap-1">
          Window
          <Select {...form.register("windowDays", { setValueAs: Number })}>
            <option value={28}>rolling 28 days</option>
            <option value={30}>rolling 30 days</option>
            <option value={7}>rolling 7 days</option>
          </Select>
        </label>
        <label className="flex flex-col gap-1">
          When the threshold is not a bucket bound
          <Select {...form.register("thresholdMode")}>
            <option value="snap">snap to the bound below (conservative)</option>
            <option value="interpolate">interpolate inside the bucket (estimate)</option>
          </Select>
        </label>
        <div className="sm:col-span-2">
          <Button onClick={loadBounds}>Show the histogram&apos;s bucket bounds</Button>
          {bounds !== null && (
            <p className="mt-2 text-xs" aria-live="polite" data-testid="bucket-bounds">
              {typeof bounds === "string"
                ? bounds
                : `Bounds (ms): ${bounds.join(", ")}. ${bounds.includes(threshold) ? `${threshold} ms is a bound: counted exactly.` : `${threshold} ms is not a bound: it will be ${form.getValues("thresholdMode") === "snap" ? "snapped" : "estimated"}.`}`}
            </p>
          )}
        </div>
        <div className="sm:col-span-2 flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? "Adding…" : "Add SLO"}
          </Button>
          <span aria-live="polite" className="text-red-600">
            {create.error && !(create.error instanceof ApiError && create.error.body.fields)
              ? create.error.message
              : null}
          </span>
        </div>
      </form>
    </Card>
  );
}
