"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, Card, TextInput } from "@/components/ui/primitives";
import { apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import { signInSchema } from "@/lib/schemas/account";

type Input = z.infer<typeof signInSchema>;

/** Email + password, and single sign-on when the operator configured a provider. */
export function SignInForm({
  next,
  sso,
  error,
}: {
  next: string;
  sso: { providerId: string; name: string } | null;
  error?: string;
}) {
  const form = useForm<Input>({ resolver: zodResolver(signInSchema), defaultValues: { email: "", password: "" } });
  const { errors } = form.formState;
  const signIn = useMutation({
    mutationFn: (input: Input) => apiFetch(urls.signIn(), { method: "POST", json: input }),
    // A full load, so the whole page (header, rights) is rendered for the signed-in user.
    onSuccess: () => window.location.assign(next),
  });
  const single = useMutation({
    mutationFn: () =>
      apiFetch<{ url: string }>(urls.signInSso(), {
        method: "POST",
        json: { provider: sso!.providerId, callbackURL: next, errorCallbackURL: "/sign-in" },
      }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const message = signIn.error?.message ?? single.error?.message ?? error;
  return (
    <Card className="space-y-4">
      <Form className="space-y-4" noValidate onSubmit={form.handleSubmit((input) => signIn.mutate(input))}>
        <Field label="Email" error={errors.email?.message}>
          {(control) => (
            <TextInput {...control} type="email" autoComplete="username" autoFocus {...form.register("email")} />
          )}
        </Field>
        <Field label="Password" error={errors.password?.message}>
          {(control) => (
            <TextInput {...control} type="password" autoComplete="current-password" {...form.register("password")} />
          )}
        </Field>
        <div aria-live="polite" role="status" className="text-sm text-red-600 dark:text-red-400">
          {message}
        </div>
        <Button type="submit" variant="primary" disabled={signIn.isPending || signIn.isSuccess}>
          {signIn.isPending || signIn.isSuccess ? "Signing in…" : "Sign in"}
        </Button>
      </Form>
      {sso && (
        <div className="border-t border-slate-200 pt-4 dark:border-slate-800">
          <Button type="button" onClick={() => single.mutate()} disabled={single.isPending || single.isSuccess}>
            {single.isPending || single.isSuccess ? "Redirecting…" : `Sign in with ${sso.name}`}
          </Button>
        </div>
      )}
    </Card>
  );
}
