"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useFieldArray, useForm } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, Card, FieldError, Select, TextInput } from "@/components/ui/primitives";
import { ServiceOptions } from "@/components/ui/service-options";
import { INDICATORS, INDICATOR_LABEL } from "@/lib/domain/experiments";
import { ApiError, apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";

type FormValues = {
  service: string;
  name: string;
  hypothesis: string;
  variants: { name: string; weight: number }[];
  indicators: string[];
  judgedPercentile: number;
  qualityMaxDropPoints: string;
  startsAt: string;
  endsAt: string;
};

export function NewExperimentForm({ services }: { services: { slug: string; name: string }[] }) {
  const router = useRouter();
  const form = useForm<FormValues>({
    defaultValues: {
      service: services[0]?.slug ?? "",
      name: "",
      hypothesis: "",
      variants: [
        { name: "control", weight: 50 },
        { name: "treatment", weight: 50 },
      ],
      indicators: ["ttftMs"],
      judgedPercentile: 0.95,
      qualityMaxDropPoints: "1",
      startsAt: "",
      endsAt: "",
    },
  });
  const variants = useFieldArray({ control: form.control, name: "variants" });
  const { errors } = form.formState;
  const create = useMutation({
    mutationFn: (v: FormValues) =>
      apiFetch<{ id: string }>(urls.experiments(), {
        method: "POST",
        json: {
          service: v.service,
          name: v.name,
          hypothesis: v.hypothesis,
          variants: v.variants.map((x) => ({ name: x.name, weight: Number(x.weight) })),
          indicators: v.indicators,
          judgedPercentile: Number(v.judgedPercentile),
          qualityMaxDrop: v.qualityMaxDropPoints === "" ? null : Number(v.qualityMaxDropPoints) / 100,
          startsAt: v.startsAt ? new Date(v.startsAt).toISOString() : null,
          endsAt: v.endsAt ? new Date(v.endsAt).toISOString() : null,
        },
      }),
    onSuccess: ({ id }) => router.push(`/experiments/${id}`),
    onError: (error) => {
      if (error instanceof ApiError && error.body.fields)
        for (const [path, message] of Object.entries(error.body.fields))
          form.setError((path === "qualityMaxDrop" ? "qualityMaxDropPoints" : path) as keyof FormValues, { message });
    },
  });
  return (
    <Card>
      <Form
        noValidate
        className="space-y-3 text-sm"
        onSubmit={form.handleSubmit((v) => create.mutate(v))}
        aria-label="New experiment"
      >
        <Field label="Service" error={errors.service?.message}>
          {(control) => (
            <Select {...control} {...form.register("service")}>
              <ServiceOptions services={services} />
            </Select>
          )}
        </Field>
        <Field label="Experiment name" error={errors.name?.message}>
          {(control) => <TextInput {...control} placeholder="prefix_caching_v1" {...form.register("name")} />}
        </Field>
        <Field label="Hypothesis" error={errors.hypothesis?.message}>
          {(control) => (
            <TextInput
              {...control}
              placeholder="Prefix caching cuts TTFT without hurting accuracy"
              {...form.register("hypothesis")}
            />
          )}
        </Field>
        <fieldset className="space-y-1">
          <legend>Variants and traffic weights (the first is the control)</legend>
          {variants.fields.map((field, i) => (
            <div key={field.id} className="flex items-center gap-2">
              <TextInput aria-label={`Variant ${i + 1} name`} {...form.register(`variants.${i}.name`)} />
              <TextInput
                aria-label={`Variant ${i + 1} weight`}
                className="w-24"
                inputMode="decimal"
                {...form.register(`variants.${i}.weight`)}
              />
              <Button
                variant="ghost"
                aria-label={`Remove variant ${i + 1}`}
                disabled={variants.fields.length <= 2}
                onClick={() => variants.remove(i)}
              >
                ✕
              </Button>
            </div>
          ))}
          <Button
            variant="ghost"
            onClick={() => variants.append({ name: `variant_${variants.fields.length}`, weight: 50 })}
          >
            + variant
          </Button>
          <FieldError id="exp-variants-error" message={errors.variants?.message ?? errors.variants?.root?.message} />
        </fieldset>
        <fieldset className="flex flex-wrap gap-4">
          <legend className="w-full">Latency indicators (the first checked decides the verdict)</legend>
          {INDICATORS.map((i) => (
            <label key={i} className="flex items-center gap-1">
              <input type="checkbox" value={i} {...form.register("indicators")} /> {INDICATOR_LABEL[i]}
            </label>
          ))}
        </fieldset>
        <div className="grid grid-cols-2 gap-3">
          <Field label="Judged percentile">
            {(control) => (
              <Select {...control} {...form.register("judgedPercentile")}>
                <option value={0.5}>p50</option>
                <option value={0.95}>p95</option>
                <option value={0.99}>p99</option>
              </Select>
            )}
          </Field>
          <Field
            label="Quality may drop by at most (points)"
            hint="Judged by its interval: the upper end of the drop must stay within this."
            error={errors.qualityMaxDropPoints?.message}
          >
            {(control) => <TextInput {...control} inputMode="decimal" {...form.register("qualityMaxDropPoints")} />}
          </Field>
          <Field label="Starts" error={errors.startsAt?.message}>
            {(control) => <TextInput {...control} type="datetime-local" {...form.register("startsAt")} />}
          </Field>
          <Field label="Ends" error={errors.endsAt?.message}>
            {(control) => <TextInput {...control} type="datetime-local" {...form.register("endsAt")} />}
          </Field>
        </div>
        <p aria-live="polite" className="text-red-600">
          {create.error && !(create.error instanceof ApiError && create.error.body.fields)
            ? create.error.message
            : null}
        </p>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create experiment"}
        </Button>
      </Form>
    </Card>
  );
}
