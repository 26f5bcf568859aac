"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Button, Card, FieldError, Select, TextInput } from "@/components/ui/primitives";
import { ApiError, apiFetch } from "@/lib/queries/api";
import { createServiceSchema } from "@/lib/schemas/service";

type FormInput = z.input<typeof createServiceSchema>;
type FormOutput = z.output<typeof createServiceSchema>;

const numberOrUndefined = (v: unknown) => (v === "" || v === null || v === undefined ? undefined : Number(v));

export function NewServiceForm() {
  const router = useRouter();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createServiceSchema),
    defaultValues: { slug: "", name: "", description: "", indicator: "TTFT", targetMs: 700, quantile: 0.95 },
  });
  const { errors } = form.formState;
  const create = useMutation({
    mutationFn: (input: FormOutput) => apiFetch<{ slug: string }>("/api/services", { method: "POST", json: input }),
    onSuccess: (service) => router.push(`/services/${service.slug}/budget`),
    onError: (error) => {
      if (error instanceof ApiError && error.body.fields) {
        for (const [field, message] of Object.entries(error.body.fields))
          form.setError(field as keyof FormInput, { message });
      }
    },
  });

  return (
    <Card>
      <form className="space-y-4" noValidate onSubmit={form.handleSubmit((input) => create.mutate(input))}>
        <div>
          <label htmlFor="name" className="block text-sm font-medium">
            Name
          </label>
          <TextInput
            id="name"
            placeholder="Chat API"
            invalid={!!errors.name}
            aria-describedby="name-error"
            {...form.register("name")}
          />
          <FieldError id="name-error" message={errors.name?.message} />
        </div>
        <div>
          <label htmlFor="slug" className="block text-sm font-medium">
            Slug <span className="font-normal text-slate-500">(used in links and the API)</span>
          </label>
          <TextInput
            id="slug"
            placeholder="chat-api"
            invalid={!!errors.slug}
            aria-describedby="slug-error"
            {...form.register("slug")}
          />
          <FieldError id="slug-error" message={errors.slug?.message} />
        </div>
        <div className="grid grid-cols-3 gap-3">
          <div>
            <label htmlFor="indicator" className="block text-sm font-medium">
              Indicator
            </label>
            <TextInput
              id="indicator"
              invalid={!!errors.indicator}
              aria-describedby="indicator-error"
              {...form.register("indicator")}
            />
            <FieldError id="indicator-error" message={errors.indicator?.message} />
          </div>
          <div>
            <label htmlFor="quantile" className="block text-sm font-medium">
              Percentile
            </label>
            <Select id="quantile" {...form.register("quantile", { setValueAs: Number })}>
              <option value={0.5}>p50</option>
              <option value={0.95}>p95</option>
              <option value={0.99}>p99</option>
            </Select>
          </div>
          <div>
            <label htmlFor="targetMs" className="block text-sm font-medium">
              Target (ms)
            </label>
            <TextInput
              id="targetMs"
              inputMode="decimal"
              invalid={!!errors.targetMs}
              aria-describedby="targetMs-error"
              {...form.register("targetMs", { setValueAs: numberOrUndefined })}
            />
            <FieldError id="targetMs-error" message={errors.targetMs?.message} />
          </div>
        </div>
        <div>
          <label htmlFor="description" className="block text-sm font-medium">
            Description <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <TextInput id="description" {...form.register("description")} />
        </div>
        <div aria-live="polite" className="text-sm text-red-600 dark:text-red-400">
          {create.error && !(create.error instanceof ApiError && create.error.body.fields)
            ? create.error.message
            : null}
        </div>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create service"}
        </Button>
      </form>
    </Card>
  );
}
