"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { FormProvider, useForm } from "react-hook-form";
import type { z } from "zod";
import { TargetFields } from "@/components/budget/target-fields";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, Card, TextInput } from "@/components/ui/primitives";
import { ApiError, apiFetch, showFieldErrors } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import { createServiceSchema } from "@/lib/schemas/service";

type FormInput = z.input<typeof createServiceSchema>;
type FormOutput = z.output<typeof createServiceSchema>;

export function NewServiceForm() {
  const router = useRouter();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createServiceSchema),
    defaultValues: { slug: "", name: "", description: "", indicator: "TTFT", targetMs: 700, quantile: 0.95 },
  });
  const { errors } = form.formState;
  const create = useMutation({
    mutationFn: (input: FormOutput) => apiFetch<{ slug: string }>(urls.services(), { method: "POST", json: input }),
    onSuccess: (service) => router.push(`/services/${service.slug}/budget`),
    onError: (error) =>
      showFieldErrors(error, (field, message) => form.setError(field as keyof FormInput, { message })),
  });

  return (
    <Card>
      <FormProvider {...form}>
        <Form className="space-y-4" noValidate onSubmit={form.handleSubmit((input) => create.mutate(input))}>
          <Field label="Name" error={errors.name?.message}>
            {(control) => <TextInput {...control} placeholder="Chat API" {...form.register("name")} />}
          </Field>
          <Field
            label={
              <>
                Slug <span className="font-normal text-slate-500">(used in links and the API)</span>
              </>
            }
            error={errors.slug?.message}
          >
            {(control) => <TextInput {...control} placeholder="chat-api" {...form.register("slug")} />}
          </Field>
          <TargetFields />
          <Field
            label={
              <>
                Description <span className="font-normal text-slate-500">(optional)</span>
              </>
            }
            error={errors.description?.message}
          >
            {(control) => <TextInput {...control} {...form.register("description")} />}
          </Field>
          <div aria-live="polite" className="text-sm text-red-600 dark:text-red-400">
            {create.error && !(create.error instanceof ApiError && create.error.body.fields)
              ? create.error.message
              : null}
          </div>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create service"}
          </Button>
        </Form>
      </FormProvider>
    </Card>
  );
}
