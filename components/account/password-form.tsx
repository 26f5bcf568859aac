"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, Card, TextInput } from "@/components/ui/primitives";
import { plural } from "@/lib/domain/format";
import { ApiError, apiFetch, showFieldErrors } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import { MIN_PASSWORD_LENGTH, passwordChangeSchema } from "@/lib/schemas/account";

type Input = z.input<typeof passwordChangeSchema>;

/** Your own password, with the current one; your other sessions end. */
export function PasswordForm() {
  const form = useForm<Input>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: { currentPassword: "", newPassword: "" },
  });
  const { errors } = form.formState;
  const change = useMutation({
    mutationFn: (input: Input) =>
      apiFetch<{ sessionsEnded: number }>(urls.myPassword(), { method: "POST", json: input }),
    onSuccess: () => form.reset(),
    onError: (error) => showFieldErrors(error, (field, message) => form.setError(field as keyof Input, { message })),
  });
  return (
    <Card>
      <Form className="max-w-sm space-y-4" noValidate onSubmit={form.handleSubmit((input) => change.mutate(input))}>
        <Field label="Current password" error={errors.currentPassword?.message}>
          {(control) => (
            <TextInput
              {...control}
              type="password"
              autoComplete="current-password"
              {...form.register("currentPassword")}
            />
          )}
        </Field>
        <Field
          label="New password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          error={errors.newPassword?.message}
        >
          {(control) => (
            <TextInput {...control} type="password" autoComplete="new-password" {...form.register("newPassword")} />
          )}
        </Field>
        <p aria-live="polite" role="status" className="text-sm">
          {change.error && !(change.error instanceof ApiError && change.error.body.fields) && (
            <span className="text-red-600 dark:text-red-400">{change.error.message}</span>
          )}
          {change.data &&
            `Password changed. ${change.data.sessionsEnded ? `Signed out of ${plural(change.data.sessionsEnded, "other session")}.` : ""}`}
        </p>
        <Button type="submit" variant="primary" disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change password"}
        </Button>
      </Form>
    </Card>
  );
}
