import "server-only";
import type { Db } from "./client";
import type { Prisma } from "@/lib/generated/prisma/client";

/** The client or an open transaction. */
export type Client = Db | Prisma.TransactionClient;

export type UserRow = {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
  deactivatedAt: Date | null;
  lastSignInAt: Date | null;
  /** How the person signs in: "password" and SSO provider ids. */
  methods: string[];
};

const select = {
  id: true,
  email: true,
  name: true,
  role: true,
  createdAt: true,
  deactivatedAt: true,
  lastSignInAt: true,
  accounts: { select: { providerId: true } },
} as const;

type Selected = Omit<UserRow, "methods"> & { accounts: { providerId: string }[] };

const toRow = ({ accounts, ...user }: Selected): UserRow => ({
  ...user,
  methods: [...new Set(accounts.map((a) => (a.providerId === "credential" ? "password" : a.providerId)))].sort(),
});

export async function listUserRows(db: Db): Promise<UserRow[]> {
  return (await db.user.findMany({ select, orderBy: [{ createdAt: "asc" }, { email: "asc" }] })).map(toRow);
}

export async function findUserRow(db: Client, id: string): Promise<UserRow | null> {
  const row = await db.user.findUnique({ where: { id }, select });
  return row && toRow(row);
}

export async function countUsers(db: Db): Promise<number> {
  return db.user.count();
}

/**
 * A user who signs in with a password (the hash is made by the auth library), as better-auth
 * stores one: the user row and a "credential" account holding the hash.
 */
export async function insertPasswordUser(
  db: Client,
  data: { id: string; email: string; name: string; role: string; passwordHash: string },
): Promise<UserRow> {
  const now = new Date();
  const user = await db.user.create({
    data: {
      id: data.id,
      email: data.email,
      name: data.name,
      role: data.role,
      emailVerified: false,
      createdAt: now,
      updatedAt: now,
      accounts: {
        create: {
          id: `${data.id}-password`,
          accountId: data.id,
          providerId: "credential",
          password: data.passwordHash,
          createdAt: now,
          updatedAt: now,
        },
      },
    },
    select,
  });
  return toRow(user);
}

/**
 * Takes the lock that orders every change to who is an admin, inside a transaction: two admins
 * can then never demote or deactivate each other into none.
 */
export async function lockAdmins(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('latency_budgets.user_roles'))`;
}

/** Active admins other than `exceptId`. */
export async function countOtherActiveAdmins(tx: Client, exceptId: string): Promise<number> {
  return tx.user.count({ where: { role: "admin", deactivatedAt: null, id: { not: exceptId } } });
}

export async function updateUserRole(tx: Client, id: string, role: string): Promise<void> {
  await tx.user.update({ where: { id }, data: { role, updatedAt: new Date() } });
}

/** Deactivates (at) or reactivates (null) a person; deactivating ends every session they have. */
export async function setUserDeactivated(tx: Client, id: string, at: Date | null): Promise<{ sessionsEnded: number }> {
  await tx.user.update({ where: { id }, data: { deactivatedAt: at, updatedAt: new Date() } });
  if (!at) return { sessionsEnded: 0 };
  return { sessionsEnded: (await tx.session.deleteMany({ where: { userId: id } })).count };
}

/** Ends a person's sessions, all of them or all but the one with `keepToken`. */
export async function deleteSessions(tx: Client, userId: string, keepToken?: string): Promise<number> {
  const where = keepToken ? { userId, token: { not: keepToken } } : { userId };
  return (await tx.session.deleteMany({ where })).count;
}

/** The stored password hash of a person who signs in with one, or null. */
export async function findPasswordHash(db: Client, userId: string): Promise<string | null> {
  const account = await db.account.findFirst({
    where: { userId, providerId: "credential" },
    select: { password: true },
  });
  return account?.password ?? null;
}

/** Replaces a password hash; false when the person has no password sign-in. */
export async function updatePasswordHash(tx: Client, userId: string, passwordHash: string): Promise<boolean> {
  const result = await tx.account.updateMany({
    where: { userId, providerId: "credential" },
    data: { password: passwordHash, updatedAt: new Date() },
  });
  return result.count > 0;
}

export async function markSignedIn(db: Client, id: string, at: Date): Promise<void> {
  await db.user.update({ where: { id }, data: { lastSignInAt: at } });
}

/** Creates the first user inside the caller's transaction, only while there is none; null when someone else was first. */
export async function insertFirstUser(
  tx: Prisma.TransactionClient,
  data: { id: string; email: string; name: string; role: string; passwordHash: string },
): Promise<UserRow | null> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('latency_budgets.first_user'))`;
  if ((await tx.user.count()) > 0) return null;
  return insertPasswordUser(tx, data);
}

export async function findUserIdByEmail(db: Client, email: string): Promise<string | null> {
  return (await db.user.findUnique({ where: { email }, select: { id: true } }))?.id ?? null;
}
