"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { useViewer } from "@/components/auth/viewer";
import { Field } from "@/components/ui/field";
import { Button, Card, EmptyState, Select, TextInput } from "@/components/ui/primitives";
import { scopesFor } from "@/lib/domain/rights";
import { apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import { createTokenSchema } from "@/lib/schemas/account";
import type { TokenView } from "@/lib/services/auth/tokens";

type Input = z.input<typeof createTokenSchema>;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

export function TokensPanel() {
  const viewer = useViewer();
  const isAdmin = viewer?.user?.role === "admin";
  const [showAll, setShowAll] = useState(false);
  const [created, setCreated] = useState<(TokenView & { token: string }) | null>(null);
  const client = useQueryClient();
  const tokens = useQuery({
    queryKey: ["tokens", showAll],
    queryFn: () => apiFetch<TokenView[]>(urls.tokens(showAll)),
  });
  const allowed = scopesFor(viewer?.user?.role ?? "viewer");
  const form = useForm<Input>({
    resolver: zodResolver(createTokenSchema),
    defaultValues: { name: "", scopes: ["read"], expiresInDays: 90 },
  });
  const { errors } = form.formState;
  const create = useMutation({
    mutationFn: (input: Input) =>
      apiFetch<TokenView & { token: string }>(urls.tokens(), { method: "POST", json: input }),
    onSuccess: (token) => {
      setCreated(token);
      form.reset();
      void client.invalidateQueries({ queryKey: ["tokens"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => apiFetch(urls.token(id), { method: "DELETE" }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["tokens"] }),
  });

  return (
    <div className="space-y-4">
      {created && (
        <Card className="space-y-2 border-emerald-400">
          <p className="text-sm font-medium">Copy the token “{created.name}” now: it is not shown again.</p>
          <div className="flex items-center gap-2">
            <code
              className="flex-1 break-all rounded bg-slate-100 px-2 py-1 text-xs dark:bg-slate-800"
              data-testid="new-token"
            >
              {created.token}
            </code>
            <Button type="button" onClick={() => void navigator.clipboard?.writeText(created.token)}>
              Copy
            </Button>
            <Button type="button" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </Card>
      )}
      <Card>
        <h2 className="mb-3 font-semibold">New token</h2>
        <form
          className="grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end"
          noValidate
          onSubmit={form.handleSubmit((input) => create.mutate(input))}
        >
          <Field label="Name" error={errors.name?.message}>
            {(control) => <TextInput {...control} placeholder="CI uploads" {...form.register("name")} />}
          </Field>
          <fieldset className="text-sm">
            <legend className="font-medium">Scopes</legend>
            <div className="flex flex-wrap gap-x-3">
              {allowed.map((scope) => (
                <label key={scope} className="flex items-center gap-1">
                  <input type="checkbox" value={scope} {...form.register("scopes")} /> {scope}
                </label>
              ))}
            </div>
            {errors.scopes && <p className="text-xs text-red-600">{errors.scopes.message}</p>}
          </fieldset>
          <Field label="Expires in">
            {(control) => (
              <Select {...control} {...form.register("expiresInDays", { valueAsNumber: true })}>
                {[7, 30, 90, 365].map((days) => (
                  <option key={days} value={days}>
                    {days} days
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create token"}
          </Button>
        </form>
        <p aria-live="polite" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {create.error?.message}
        </p>
      </Card>
      {isAdmin && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} /> Everyone’s tokens
        </label>
      )}
      {tokens.isPending ? (
        <Card className="h-24 animate-pulse">{null}</Card>
      ) : tokens.isError ? (
        <p className="text-sm text-red-600">{tokens.error.message}</p>
      ) : tokens.data.length === 0 ? (
        <EmptyState title="No tokens yet">
          Scripts and CI use a token instead of a password: create one above.
        </EmptyState>
      ) : (
        <Card className="overflow-x-auto p-0">
          <table className="w-full text-sm">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="px-3 py-2">Name</th>
                {showAll && <th className="px-3 py-2">Owner</th>}
                <th className="px-3 py-2">Token</th>
                <th className="px-3 py-2">Scopes</th>
                <th className="px-3 py-2">Expires</th>
                <th className="px-3 py-2">Last used</th>
                <th className="px-3 py-2" />
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <tr key={token.id} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="px-3 py-2">{token.name}</td>
                  {showAll && <td className="px-3 py-2">{token.owner}</td>}
                  <td className="px-3 py-2 font-mono text-xs">{token.prefix}…</td>
                  <td className="px-3 py-2">{token.scopes.join(", ")}</td>
                  <td className="px-3 py-2">{when(token.expiresAt)}</td>
                  <td className="px-3 py-2">{when(token.lastUsedAt)}</td>
                  <td className="px-3 py-2 text-right">
                    {token.revokedAt ? (
                      <span className="text-slate-500">revoked</span>
                    ) : (
                      <Button
                        type="button"
                        onClick={() => {
                          if (window.confirm(`Revoke “${token.name}”? Scripts using it stop working at once.`))
                            revoke.mutate(token.id);
                        }}
                        disabled={revoke.isPending}
                      >
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </div>
  );
}
