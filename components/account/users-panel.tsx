"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field } from "@/components/ui/field";
import { CELL, DataTable, QueryStates, ROW } from "@/components/ui/data-table";
import { Form } from "@/components/ui/form";
import { Badge, Button, Card, Select, TextInput } from "@/components/ui/primitives";
import { ROLES } from "@/lib/domain/rights";
import { ApiError, apiFetch, showFieldErrors } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import { MIN_PASSWORD_LENGTH, newUserSchema } from "@/lib/schemas/account";
import type { UserView } from "@/lib/services/auth/users";
import { PersonActions } from "./person-actions";

const when = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });

type Input = z.input<typeof newUserSchema>;

export function UsersPanel({ selfId }: { selfId: string }) {
  const client = useQueryClient();
  const users = useQuery({ queryKey: ["users"], queryFn: () => apiFetch<UserView[]>(urls.users()) });
  const form = useForm<Input>({
    resolver: zodResolver(newUserSchema),
    defaultValues: { email: "", name: "", role: "viewer", password: "" },
  });
  const { errors } = form.formState;
  const create = useMutation({
    mutationFn: (input: Input) => apiFetch<UserView>(urls.users(), { method: "POST", json: input }),
    onSuccess: () => {
      form.reset();
      void client.invalidateQueries({ queryKey: ["users"] });
    },
    onError: (error) => showFieldErrors(error, (field, message) => form.setError(field as keyof Input, { message })),
  });
  const setRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: string }) =>
      apiFetch<UserView>(urls.user(id), { method: "PATCH", json: { role } }),
    onSettled: () => void client.invalidateQueries({ queryKey: ["users"] }),
  });

  return (
    <div className="space-y-4">
      <Card>
        <h2 className="mb-3 font-semibold">Add someone</h2>
        <Form
          className="grid gap-3 sm:grid-cols-2"
          noValidate
          onSubmit={form.handleSubmit((input) => create.mutate(input))}
        >
          <Field label="Name" error={errors.name?.message}>
            {(control) => <TextInput {...control} {...form.register("name")} />}
          </Field>
          <Field label="Email" error={errors.email?.message}>
            {(control) => <TextInput {...control} type="email" {...form.register("email")} />}
          </Field>
          <Field label="Role" error={errors.role?.message}>
            {(control) => (
              <Select {...control} {...form.register("role")}>
                {ROLES.map((role) => (
                  <option key={role}>{role}</option>
                ))}
              </Select>
            )}
          </Field>
          <Field
            label="First password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters; tell them in person.`}
            error={errors.password?.message}
          >
            {(control) => (
              <TextInput {...control} type="password" autoComplete="new-password" {...form.register("password")} />
            )}
          </Field>
          <div className="sm:col-span-2">
            <Button type="submit" variant="primary" disabled={create.isPending}>
              {create.isPending ? "Adding…" : "Add user"}
            </Button>
            <span aria-live="polite" className="ml-3 text-sm text-red-600 dark:text-red-400">
              {create.error && !(create.error instanceof ApiError && create.error.body.fields)
                ? create.error.message
                : null}
            </span>
          </div>
        </Form>
      </Card>
      <p aria-live="polite" className="text-sm text-red-600 dark:text-red-400">
        {setRole.error?.message}
      </p>
      <QueryStates query={users} empty={{ title: "Nobody yet", body: "Add the first person above." }}>
        {(rows) => (
          <DataTable columns={["Name", "Email", "Signs in with", "Last sign-in", "Role", "Access"]}>
            {rows.map((user) => (
              <tr key={user.id} className={ROW} data-testid={`user-${user.email}`}>
                <td className={CELL}>
                  {user.name}{" "}
                  {!user.active && (
                    <Badge tone="bad" title={user.deactivatedAt ? `since ${when(user.deactivatedAt)}` : undefined}>
                      deactivated
                    </Badge>
                  )}
                </td>
                <td className={CELL}>{user.email}</td>
                <td className={CELL}>
                  {user.methods.map((m) => (m === "oidc" ? "single sign-on" : m)).join(", ") || "—"}
                </td>
                <td className={CELL}>{user.lastSignInAt ? when(user.lastSignInAt) : "never"}</td>
                <td className={CELL}>
                  <Select
                    aria-label={`Role of ${user.email}`}
                    value={user.role}
                    disabled={setRole.isPending || user.roleSource !== "admin"}
                    title={
                      user.roleSource !== "admin" ? "Set by the single sign-on provider at every sign-in" : undefined
                    }
                    onChange={(event) => {
                      const role = event.target.value;
                      if (
                        user.id !== selfId ||
                        window.confirm("Change your own role? You may lose access to this page.")
                      )
                        setRole.mutate({ id: user.id, role });
                    }}
                  >
                    {ROLES.map((role) => (
                      <option key={role}>{role}</option>
                    ))}
                  </Select>
                  {user.roleSource !== "admin" && (
                    <p className="mt-1 text-xs text-slate-500">set by single sign-on at each sign-in</p>
                  )}
                </td>
                <td className={CELL}>
                  <PersonActions user={user} isSelf={user.id === selfId} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryStates>
    </div>
  );
}
