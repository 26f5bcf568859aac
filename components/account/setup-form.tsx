"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, Card, TextInput } from "@/components/ui/primitives";
import { ApiError, apiFetch, showFieldErrors } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import { MIN_PASSWORD_LENGTH, setupSchema } from "@/lib/schemas/account";

type Input = z.infer<typeof setupSchema>;

/** First run: the first admin, then straight in. */
export function SetupForm() {
  const form = useForm<Input>({
    resolver: zodResolver(setupSchema),
    defaultValues: { code: "", email: "", name: "", password: "" },
  });
  const { errors } = form.formState;
  const setUp = useMutation({
    mutationFn: async (input: Input) => {
      await apiFetch(urls.setup(), { method: "POST", json: input });
      await apiFetch(urls.signIn(), { method: "POST", json: { email: input.email, password: input.password } });
    },
    onSuccess: () => window.location.assign("/"),
    onError: (error) => showFieldErrors(error, (field, message) => form.setError(field as keyof Input, { message })),
  });
  return (
    <Card>
      <Form className="space-y-4" noValidate onSubmit={form.handleSubmit((input) => setUp.mutate(input))}>
        <Field
          label="Setup code"
          hint="The server printed it in its log when it started: “Open /setup and enter this one-time code…”."
          error={errors.code?.message}
        >
          {(control) => (
            <TextInput
              {...control}
              autoComplete="one-time-code"
              autoFocus
              spellCheck={false}
              {...form.register("code")}
            />
          )}
        </Field>
        <Field label="Your name" error={errors.name?.message}>
          {(control) => <TextInput {...control} autoComplete="name" {...form.register("name")} />}
        </Field>
        <Field label="Email" error={errors.email?.message}>
          {(control) => <TextInput {...control} type="email" autoComplete="username" {...form.register("email")} />}
        </Field>
        <Field label="Password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} error={errors.password?.message}>
          {(control) => (
            <TextInput {...control} type="password" autoComplete="new-password" {...form.register("password")} />
          )}
        </Field>
        <div aria-live="polite" role="status" className="text-sm text-red-600 dark:text-red-400">
          {setUp.error && !(setUp.error instanceof ApiError && setUp.error.body.fields) ? setUp.error.message : null}
        </div>
        <Button type="submit" variant="primary" disabled={setUp.isPending || setUp.isSuccess}>
          {setUp.isPending || setUp.isSuccess ? "Setting up…" : "Create the admin and sign in"}
        </Button>
      </Form>
    </Card>
  );
}
