"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormProvider, useForm, useWatch, type Resolver } from "react-hook-form";
import { formPath, sourceFromForm, sourceToForm, type SourceForm } from "@/components/budget/form-model";
import { SourceEditor } from "@/components/budget/source-editor";
import { toFieldErrors } from "@/components/budget/use-budget-resolver";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, Card, Select, TextInput } from "@/components/ui/primitives";
import type { PresetId } from "@/lib/domain/presets";
import { unreachableAlertsNote } from "@/lib/domain/slo";
import { ApiError, apiFetch } from "@/lib/queries/api";
import { queries, urls } from "@/lib/queries/resources";
import { sloInputSchema } from "@/lib/schemas/live";
import { fieldPath } from "@/lib/schemas/parse";
import type { SloStatus } from "@/lib/services/slos";

type FormValues = {
  name: string;
  indicator: string;
  source: SourceForm;
  thresholdMs: number;
  objective: number;
  /** One choice for the window: rolling N days, or a calendar week or month. */
  window: "28" | "30" | "7" | "week" | "month";
  timeZone: string;
  thresholdMode: "snap" | "interpolate";
  budgetingMethod: "occurrences" | "timeslices";
  timesliceMinutes: number;
  timesliceTarget: number;
};

type Source = { preset: string; metric: string; matchers: Record<string, string> };

function toInput(v: FormValues) {
  return {
    name: v.name,
    indicator: v.indicator,
    source: sourceFromForm(v.source),
    thresholdMs: v.thresholdMs,
    objective: v.objective,
    ...(v.window === "week" || v.window === "month"
      ? { windowKind: "calendar", calendarUnit: v.window, timeZone: v.timeZone }
      : { windowKind: "rolling", windowDays: Number(v.window) }),
    thresholdMode: v.thresholdMode,
    budgetingMethod: v.budgetingMethod,
    ...(v.budgetingMethod === "timeslices" && {
      timesliceMinutes: v.timesliceMinutes,
      timesliceTarget: v.timesliceTarget,
    }),
  };
}

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

function toValues(slo: SloStatus | null, defaultSource: Source | null): FormValues {
  const source = slo?.source ?? defaultSource;
  return {
    name: slo?.name ?? "",
    indicator: slo?.indicator ?? "TTFT",
    source: sourceToForm(
      source ? { ...source, preset: source.preset as PresetId } : { preset: "generic", metric: "", matchers: {} },
    ),
    thresholdMs: slo?.thresholdMs ?? 700,
    objective: slo?.objective ?? 0.99,
    window:
      slo?.windowKind === "calendar" && slo.calendarUnit
        ? slo.calendarUnit
        : (String(slo?.windowDays ?? 28) as FormValues["window"]),
    timeZone: slo?.windowKind === "calendar" ? slo.timeZone : browserTimeZone(),
    thresholdMode: slo?.thresholdPreference ?? "snap",
    budgetingMethod: slo?.budgetingMethod ?? "occurrences",
    timesliceMinutes: slo?.timesliceMinutes ?? 5,
    timesliceTarget: slo?.timesliceTarget ?? 0.95,
  };
}

/** Validates with the API's own schema; errors land on the form's paths. */
const resolver: Resolver<FormValues> = async (values) => {
  const result = sloInputSchema.safeParse(toInput(values));
  if (result.success) return { values, errors: {} };
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[fieldPath(issue.path)] ??= issue.message;
  return { values: {}, errors: toFieldErrors<FormValues>(fields) };
};

const num = (v: unknown) => (v === "" ? Number.NaN : Number(v));

/** Adds an SLO, or edits one (`editing`), with the histogram's real bucket bounds on request. */
export function SloForm({
  slug,
  defaultSource,
  editing = null,
  onDone,
}: {
  slug: string;
  defaultSource: Source | null;
  editing?: SloStatus | null;
  onDone?: () => void;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [bounds, setBounds] = useState<number[] | string | null>(null);
  const form = useForm<FormValues>({ resolver, defaultValues: toValues(editing, defaultSource) });
  const { errors } = form.formState;
  const threshold = useWatch({ control: form.control, name: "thresholdMs" });
  const window = useWatch({ control: form.control, name: "window" });
  const method = useWatch({ control: form.control, name: "budgetingMethod" });
  const objective = useWatch({ control: form.control, name: "objective" });
  const windowDays = window === "week" ? 7 : window === "month" ? 30 : Number(window);
  const deadAlerts =
    typeof objective === "number" && objective > 0 && objective < 1
      ? unreachableAlertsNote(objective, windowDays * 86400)
      : null;
  const prefix = editing ? `slo-${editing.id}` : "slo-new";

  const save = useMutation({
    mutationFn: (values: FormValues) =>
      editing
        ? apiFetch(urls.slo(slug, editing.id), {
            method: "PUT",
            json: { ...toInput(values), version: editing.version },
          })
        : apiFetch(urls.slos(slug), { method: "POST", json: toInput(values) }),
    onSuccess: async () => {
      if (!editing) form.reset(toValues(null, defaultSource));
      setBounds(null);
      await queryClient.invalidateQueries({ queryKey: queries.slos(slug).queryKey });
      router.refresh();
      onDone?.();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.body.fields) {
        for (const [path, message] of Object.entries(error.body.fields))
          form.setError(formPath(path) as keyof FormValues, { message });
      }
    },
  });

  async function loadBounds() {
    setBounds("Loading…");
    try {
      const { source } = toInput(form.getValues());
      const result = await apiFetch<{ boundsMs: number[] }>(urls.bucketBounds(), { method: "POST", json: { source } });
      setBounds(result.boundsMs.length ? result.boundsMs : "No buckets found for this histogram in the last hour.");
    } catch (error) {
      setBounds(error instanceof Error ? error.message : "Could not load the bucket bounds.");
    }
  }

  const body = (
    <FormProvider {...form}>
      <Form
        noValidate
        className="grid gap-3 text-sm sm:grid-cols-2"
        onSubmit={form.handleSubmit((v) => save.mutate(v))}
        aria-label={editing ? `Edit SLO ${editing.name}` : "New SLO"}
      >
        <Field label="SLO name" error={errors.name?.message}>
          {(control) => <TextInput {...control} placeholder="TTFT under 700 ms" {...form.register("name")} />}
        </Field>
        <Field label="Indicator" error={errors.indicator?.message}>
          {(control) => <TextInput {...control} {...form.register("indicator")} />}
        </Field>
        <div className="sm:col-span-2">
          <SourceEditor name="source" id={prefix} label="Histogram preset" allowNone={false} />
        </div>
        <Field label="Threshold (ms)" error={errors.thresholdMs?.message}>
          {(control) => (
            <TextInput {...control} inputMode="decimal" {...form.register("thresholdMs", { setValueAs: num })} />
          )}
        </Field>
        <Field
          label="Objective (share of requests, e.g. 0.99)"
          error={errors.objective?.message}
          hint={deadAlerts && <span className="text-amber-700 dark:text-amber-400">{deadAlerts}</span>}
        >
          {(control) => (
            <TextInput {...control} inputMode="decimal" {...form.register("objective", { setValueAs: num })} />
          )}
        </Field>
        <Field
          label="Window"
          hint="The SLO's window also sets its alerts' burn-rate factors (a calendar month counts as 30 days)."
        >
          {(control) => (
            <Select {...control} {...form.register("window")}>
              <option value="28">rolling 28 days</option>
              <option value="30">rolling 30 days</option>
              <option value="7">rolling 7 days</option>
              <option value="month">calendar month</option>
              <option value="week">calendar week (from Monday)</option>
            </Select>
          )}
        </Field>
        {(window === "week" || window === "month") && (
          <Field
            label="Time zone the period starts in"
            error={errors.timeZone?.message}
            hint="An IANA name, e.g. Europe/Berlin"
          >
            {(control) => <TextInput {...control} {...form.register("timeZone")} />}
          </Field>
        )}
        <Field label="Budgeting method">
          {(control) => (
            <Select {...control} {...form.register("budgetingMethod")}>
              <option value="occurrences">occurrences (share of requests)</option>
              <option value="timeslices">timeslices (share of good N-minute slices)</option>
            </Select>
          )}
        </Field>
        {method === "timeslices" && (
          <>
            <Field label="Slice length (minutes)" error={errors.timesliceMinutes?.message}>
              {(control) => (
                <TextInput
                  {...control}
                  inputMode="numeric"
                  {...form.register("timesliceMinutes", { setValueAs: num })}
                />
              )}
            </Field>
            <Field
              label="A slice is good when this share of its requests meets the threshold"
              error={errors.timesliceTarget?.message}
              hint="0.95: the slice's p95 is at most the threshold"
            >
              {(control) => (
                <TextInput
                  {...control}
                  inputMode="decimal"
                  {...form.register("timesliceTarget", { setValueAs: num })}
                />
              )}
            </Field>
          </>
        )}
        <Field label="When the threshold is not a bucket bound">
          {(control) => (
            <Select {...control} {...form.register("thresholdMode")}>
              <option value="snap">snap to the bound below (conservative)</option>
              <option value="interpolate">interpolate inside the bucket (estimate)</option>
            </Select>
          )}
        </Field>
        <div className="sm:col-span-2">
          <Button onClick={loadBounds}>Show the histogram&apos;s bucket bounds</Button>
          {bounds !== null && (
            <p className="mt-2 text-xs" aria-live="polite" data-testid="bucket-bounds">
              {typeof bounds === "string"
                ? bounds
                : `Bounds (ms): ${bounds.join(", ")}. ${
                    bounds.includes(threshold)
                      ? `${threshold} ms is a bound: counted exactly.`
                      : threshold > Math.max(...bounds)
                        ? `${threshold} ms is above the last bound: it will be counted at ${Math.max(...bounds)} ms.`
                        : `${threshold} ms is not a bound: it will be ${form.getValues("thresholdMode") === "snap" ? "snapped" : "estimated"}.`
                  }`}
            </p>
          )}
        </div>
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : editing ? "Save SLO" : "Add SLO"}
          </Button>
          {onDone && <Button onClick={onDone}>Cancel</Button>}
          <span aria-live="polite" className="text-red-600">
            {save.error && !(save.error instanceof ApiError && save.error.body.fields) ? save.error.message : null}
          </span>
        </div>
      </Form>
    </FormProvider>
  );
  if (editing) return body;
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold">Add an SLO</h2>
      {body}
    </Card>
  );
}
