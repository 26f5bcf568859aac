import "server-only";
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import {
  countOtherActiveAdmins,
  countUsers,
  findUserIdByEmail,
  findUserRow,
  insertPasswordUser,
  listUserRows,
  lockAdmins,
  setUserDeactivated,
  updateUserRole,
  type UserRow,
} from "@/lib/db/users";
import { plural } from "@/lib/domain/format";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { newUserSchema, userChangeSchema } from "@/lib/schemas/account";
import { parseInput } from "@/lib/schemas/parse";
import { authorize, userOf, type Actor, type Mutation } from "../actor";
import { recordAudit } from "../audit";
import { guardedRead, mutation } from "../mutation";
import { OIDC_PROVIDER_ID } from "./better-auth";

export type UserView = {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: string;
  /** How the person signs in: "password", "oidc" (single sign-on). */
  methods: string[];
  active: boolean;
  deactivatedAt: string | null;
  lastSignInAt: string | null;
  /** Who decides the role: an admin here, or the SSO provider's claim at every sign-in. */
  roleSource: "admin" | "single sign-on";
};

/** Whether the SSO provider sets this person's role at each sign-in (a role claim is configured). */
const isRoleFromSso = (row: UserRow) => Boolean(env().LB_OIDC_ROLE_CLAIM) && row.methods.includes(OIDC_PROVIDER_ID);

export const userView = (row: UserRow): UserView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
  methods: row.methods,
  active: row.deactivatedAt === null,
  deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
  lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  roleSource: isRoleFromSso(row) ? "single sign-on" : "admin",
});

export async function newPasswordUser(data: z.output<typeof newUserSchema>) {
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

/** Ids are UUIDs (added here) or better-auth's random strings (single sign-on): nothing else names a user. */
export async function findUserOrThrow(db: Db, id: string): Promise<UserRow> {
  const row = /^[A-Za-z0-9_-]{1,64}$/.test(id) ? await findUserRow(db, id) : null;
  if (!row) throw new AppError("NOT_FOUND", "No such user.");
  return row;
}

export const listUsers = guardedRead("user.list", async ({ db }: { db: Db; actor: Actor }): Promise<UserView[]> =>
  (await listUserRows(db)).map(userView),
);

/** An admin adds someone who signs in with a password. */
export const createUser = mutation("user.create", async ({ db, actor, input }: Mutation): Promise<UserView> => {
  const data = parseInput(newUserSchema, input, "The user");
  // Before hashing (tens of milliseconds); the unique index still decides a race.
  if (await findUserIdByEmail(db, data.email)) throw emailTaken(data.email);
  const user = await newPasswordUser(data);
  let row: UserRow;
  try {
    row = await db.$transaction(async (tx) => {
      const inserted = await insertPasswordUser(tx, user);
      await recordAudit(tx, actor, {
        action: "user.create",
        target: inserted.email,
        summary: `Added ${inserted.email} as ${inserted.role}`,
      });
      return inserted;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(data.email);
    throw error;
  }
  return userView(row);
});

const lastAdmin = (what: string) =>
  new AppError("CONFLICT", `This is the last active admin: make someone else an admin before you ${what}.`, {
    role: "The last active admin stays an admin",
  });

/**
 * An admin changes someone's role, access, or both (PATCH /api/users/{id}). Deactivating ends the
 * person's sessions, stops their tokens and refuses their sign-in from the next request on;
 * reactivating gives access back (their unexpired tokens work again). Nobody can demote or
 * deactivate the last active admin, or deactivate themselves.
 */
export const updateUser = mutation(
  "user.role",
  async ({ db, actor, id, input }: Mutation & { id: string }): Promise<UserView> => {
    const change = parseInput(userChangeSchema, input, "The change");
    if (change.active !== undefined) authorize(actor, "user.deactivate");
    const before = await findUserOrThrow(db, id);
    const roleChanges = change.role !== undefined && change.role !== before.role;
    const activeChanges = change.active !== undefined && change.active !== (before.deactivatedAt === null);
    if (roleChanges && isRoleFromSso(before))
      throw new AppError(
        "CONFLICT",
        `${env().LB_OIDC_NAME} decides ${before.email}'s role at every sign-in (claim ${env().LB_OIDC_ROLE_CLAIM}): change their groups there, or deactivate them here.`,
        { role: "Set by single sign-on" },
      );
    if (change.active === false && userOf(actor)?.id === id)
      throw new AppError("CONFLICT", "You cannot deactivate yourself: ask another admin.", {
        active: "You cannot deactivate yourself",
      });
    if (!roleChanges && !activeChanges) return userView(before);
    await db.$transaction(async (tx) => {
      await lockAdmins(tx);
      const current = (await findUserRow(tx, id))!;
      const staysAdmin = (change.role ?? current.role) === "admin" && (change.active ?? current.deactivatedAt === null);
      if (current.role === "admin" && !staysAdmin && (await countOtherActiveAdmins(tx, id)) === 0)
        throw lastAdmin(change.active === false ? "deactivate this one" : "demote this one");
      if (roleChanges) {
        await updateUserRole(tx, id, change.role!);
        await recordAudit(tx, actor, {
          action: "user.role",
          target: before.email,
          summary: `Changed the role of ${before.email} from ${current.role} to ${change.role}`,
        });
      }
      if (activeChanges) {
        const { sessionsEnded } = await setUserDeactivated(tx, id, change.active ? null : new Date());
        await recordAudit(tx, actor, {
          action: change.active ? "user.reactivate" : "user.deactivate",
          target: before.email,
          summary: change.active
            ? `Reactivated ${before.email}`
            : `Deactivated ${before.email}: ended ${plural(sessionsEnded, "session")}; their tokens stop working`,
        });
      }
    });
    return userView((await findUserRow(db, id))!);
  },
);

const globalForSetup = globalThis as unknown as { latencyBudgetsHasUsers?: boolean };

/** Remembers that someone has an account: the first-run setup never reopens in this process. */
export function markSetUp(): void {
  globalForSetup.latencyBudgetsHasUsers = true;
}

/** Whether the first-run setup is still open (no user exists). Once someone exists, it never reopens. */
export async function needsSetup(db: Db): Promise<boolean> {
  if (globalForSetup.latencyBudgetsHasUsers) return false;
  const hasUsers = (await countUsers(db)) > 0;
  if (hasUsers) globalForSetup.latencyBudgetsHasUsers = true;
  return !hasUsers;
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
