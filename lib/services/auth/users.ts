import "server-only";
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import {
  countUsers,
  findUserIdByEmail,
  findUserRow,
  insertFirstUser,
  insertPasswordUser,
  listUserRows,
  updateUserRole,
  type UserRow,
} from "@/lib/db/users";
import { AppError } from "@/lib/errors";
import { newUserSchema, roleChangeSchema, setupSchema } from "@/lib/schemas/account";
import { parseInput } from "@/lib/schemas/parse";
import { ANONYMOUS, type Actor, type Mutation } from "../actor";
import { recordAudit } from "../audit";
import { guardedRead, mutation } from "../mutation";

export type UserView = { id: string; email: string; name: string; role: string; createdAt: string; methods: string[] };

const toView = (row: UserRow): UserView => ({ ...row, createdAt: row.createdAt.toISOString() });

async function newPasswordUser(data: z.output<typeof newUserSchema>) {
  return {
    id: randomUUID(),
    email: data.email,
    name: data.name,
    role: data.role,
    passwordHash: await hashPassword(data.password),
  };
}

const emailTaken = (email: string) =>
  new AppError("CONFLICT", `There is already a user with the email ${email}.`, { email: "This email is taken" });

export const listUsers = guardedRead("user.list", async ({ db }: { db: Db; actor: Actor }): Promise<UserView[]> =>
  (await listUserRows(db)).map(toView),
);

/** An admin adds someone who signs in with a password. */
export const createUser = mutation("user.create", async ({ db, actor, input }: Mutation): Promise<UserView> => {
  const data = parseInput(newUserSchema, input, "The user");
  let row: UserRow;
  try {
    row = await insertPasswordUser(db, await newPasswordUser(data));
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(data.email);
    throw error;
  }
  await recordAudit(db, actor, {
    action: "user.create",
    target: row.email,
    summary: `Added ${row.email} as ${row.role}`,
  });
  return toView(row);
});

/** An admin changes someone's role; the last admin cannot be demoted. Takes effect at once. */
export const setUserRole = mutation(
  "user.role",
  async ({ db, actor, id, input }: Mutation & { id: string }): Promise<UserView> => {
    const { role } = parseInput(roleChangeSchema, input, "The role change");
    // Ids are UUIDs (added here) or better-auth's random strings (single sign-on): nothing else names a user.
    const before = /^[A-Za-z0-9_-]{1,64}$/.test(id) ? await findUserRow(db, id) : null;
    if (!before) throw new AppError("NOT_FOUND", "No such user.");
    if (before.role === role) return toView(before);
    if (!(await updateUserRole(db, id, role)))
      throw new AppError("CONFLICT", "This is the last admin: make someone else an admin first.", {
        role: "The last admin stays an admin",
      });
    await recordAudit(db, actor, {
      action: "user.role",
      target: before.email,
      summary: `Changed the role of ${before.email} from ${before.role} to ${role}`,
    });
    return toView((await findUserRow(db, id))!);
  },
);

const globalForSetup = globalThis as unknown as { latencyBudgetsHasUsers?: boolean };

/** Whether the first-run setup is still open (no user exists). Once someone exists, it never reopens. */
export async function needsSetup(db: Db): Promise<boolean> {
  if (globalForSetup.latencyBudgetsHasUsers) return false;
  const hasUsers = (await countUsers(db)) > 0;
  if (hasUsers) globalForSetup.latencyBudgetsHasUsers = true;
  return !hasUsers;
}

/** First run: whoever opens the app before anyone exists creates the first admin. */
export async function setUpFirstAdmin({ db, input }: { db: Db; input: unknown }): Promise<UserView> {
  const data = parseInput(setupSchema, input, "The first admin");
  const closed = () => new AppError("CONFLICT", "The app is already set up: sign in instead.");
  if (!(await needsSetup(db))) throw closed();
  const row = await insertFirstUser(db, await newPasswordUser({ ...data, role: "admin" }));
  if (!row) throw closed();
  globalForSetup.latencyBudgetsHasUsers = true;
  await recordAudit(db, ANONYMOUS, {
    action: "user.setup",
    target: row.email,
    summary: `Set up the app with ${row.email} as the first admin`,
  });
  return toView(row);
}

/** The demo's admin, created when missing (its password is then the configured one). */
export async function ensureDemoAdmin(db: Db, credentials: { email: string; password: string }): Promise<boolean> {
  const data = parseInput(newUserSchema, { ...credentials, name: "Demo admin", role: "admin" }, "The demo admin");
  if (await findUserIdByEmail(db, data.email)) return false;
  try {
    await insertPasswordUser(db, await newPasswordUser(data));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return false;
  }
  return true;
}
