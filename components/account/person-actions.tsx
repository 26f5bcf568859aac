"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, TextInput } from "@/components/ui/primitives";
import { plural } from "@/lib/domain/format";
import { apiFetch, showFieldErrors } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import { MIN_PASSWORD_LENGTH, passwordResetSchema } from "@/lib/schemas/account";
import type { UserView } from "@/lib/services/auth/users";

type ResetInput = z.input<typeof passwordResetSchema>;

/** One person's access: deactivate or reactivate, sign out everywhere, reset the password. */
export function PersonActions({ user, isSelf }: { user: UserView; isSelf: boolean }) {
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: ["users"] });
  const access = useMutation({
    mutationFn: (active: boolean) => apiFetch<UserView>(urls.user(user.id), { method: "PATCH", json: { active } }),
    onSettled: refresh,
  });
  const signOut = useMutation({
    mutationFn: () => apiFetch<{ sessionsEnded: number }>(urls.userSessions(user.id), { method: "DELETE" }),
  });
  const form = useForm<ResetInput>({ resolver: zodResolver(passwordResetSchema), defaultValues: { password: "" } });
  const reset = useMutation({
    mutationFn: (input: ResetInput) => apiFetch<UserView>(urls.userPassword(user.id), { method: "POST", json: input }),
    onSuccess: () => form.reset(),
    onError: (error) => showFieldErrors(error, (_field, message) => form.setError("password", { message })),
  });
  const hasPassword = user.methods.includes("password");
  const error = access.error?.message ?? signOut.error?.message;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        {user.active ? (
          <Button
            variant="danger"
            disabled={isSelf || access.isPending}
            title={isSelf ? "Ask another admin to deactivate you" : undefined}
            onClick={() => {
              if (window.confirm(`Deactivate ${user.email}? Their sessions end and their tokens stop working now.`))
                access.mutate(false);
            }}
          >
            Deactivate
          </Button>
        ) : (
          <Button disabled={access.isPending} onClick={() => access.mutate(true)}>
            Reactivate
          </Button>
        )}
        <Button disabled={signOut.isPending} onClick={() => signOut.mutate()}>
          Sign out everywhere
        </Button>
      </div>
      {hasPassword && (
        <details>
          <summary className="cursor-pointer text-sm text-sky-700 dark:text-sky-400">Reset password</summary>
          <Form
            className="mt-2 flex items-end gap-2"
            noValidate
            onSubmit={form.handleSubmit((input) => reset.mutate(input))}
          >
            <Field
              label={`New password for ${user.email}`}
              hint={`At least ${MIN_PASSWORD_LENGTH} characters; their sessions end.`}
              error={form.formState.errors.password?.message}
            >
              {(control) => (
                <TextInput {...control} type="password" autoComplete="new-password" {...form.register("password")} />
              )}
            </Field>
            <Button type="submit" disabled={reset.isPending}>
              {reset.isPending ? "Setting…" : "Set"}
            </Button>
          </Form>
        </details>
      )}
      <p aria-live="polite" className="text-sm">
        {error && <span className="text-red-600 dark:text-red-400">{error}</span>}
        {signOut.data && `Signed out of ${plural(signOut.data.sessionsEnded, "session")}.`}
        {reset.isSuccess && " Password set; their sessions ended."}
      </p>
    </div>
  );
}
