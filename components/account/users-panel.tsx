"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field } from "@/components/ui/field";
import { Button, Card, Select, TextInput } from "@/components/ui/primitives";
import { ROLES } from "@/lib/domain/rights";
import { ApiError, apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import { MIN_PASSWORD_LENGTH, newUserSchema } from "@/lib/schemas/account";
import type { UserView } from "@/lib/services/auth/users";

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
    onError: (error) => {
      if (error instanceof ApiError && error.body.fields)
        for (const [field, message] of Object.entries(error.body.fields))
          form.setError(field as keyof Input, { message });
    },
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
        <form
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
        </form>
      </Card>
      <p aria-live="polite" className="text-sm text-red-600 dark:text-red-400">
        {setRole.error?.message}
      </p>
      {users.isPending ? (
        <Card className="h-24 animate-pulse">{null}</Card>
      ) : users.isError ? (
        <p className="text-sm text-red-600">{users.error.message}</p>
      ) : (
        <Card className="overflow-x-auto p-0">
          <table className="w-full text-sm">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="px-3 py-2">Name</th>
                <th className="px-3 py-2">Email</th>
                <th className="px-3 py-2">Signs in with</th>
                <th className="px-3 py-2">Role</th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((user) => (
                <tr key={user.id} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="px-3 py-2">{user.name}</td>
                  <td className="px-3 py-2">{user.email}</td>
                  <td className="px-3 py-2">{user.methods.join(", ") || "—"}</td>
                  <td className="px-3 py-2">
                    <Select
                      aria-label={`Role of ${user.email}`}
                      value={user.role}
                      disabled={setRole.isPending}
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
