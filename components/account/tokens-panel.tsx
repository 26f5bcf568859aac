"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { useViewer } from "@/components/auth/viewer";
import { Field } from "@/components/ui/field";
import { CELL, DataTable, QueryStates, ROW } from "@/components/ui/data-table";
import { Form } from "@/components/ui/form";
import { Button, Card, Select, TextInput } from "@/components/ui/primitives";
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
        <Form
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
        </Form>
        <p aria-live="polite" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {create.error?.message}
        </p>
      </Card>
      {isAdmin && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} /> Everyone’s tokens
        </label>
      )}
      <QueryStates
        query={tokens}
        empty={{ title: "No tokens yet", body: "Scripts and CI use a token instead of a password: create one above." }}
      >
        {(rows) => (
          <DataTable columns={["Name", ...(showAll ? ["Owner"] : []), "Token", "Scopes", "Expires", "Last used", ""]}>
            {rows.map((token) => (
              <tr key={token.id} className={ROW}>
                <td className={CELL}>{token.name}</td>
                {showAll && <td className={CELL}>{token.owner}</td>}
                <td className={`${CELL} font-mono text-xs`}>{token.prefix}…</td>
                <td className={CELL}>{token.scopes.join(", ")}</td>
                <td className={CELL}>{when(token.expiresAt)}</td>
                <td className={CELL}>{when(token.lastUsedAt)}</td>
                <td className={`${CELL} text-right`}>
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
          </DataTable>
        )}
      </QueryStates>
    </div>
  );
}
