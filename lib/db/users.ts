import "server-only";
import type { Db } from "./client";
import type { Prisma } from "@/lib/generated/prisma/client";

/** The client or an open transaction. */
type Client = Db | Prisma.TransactionClient;

export type UserRow = { id: string; email: string; name: string; role: string; createdAt: Date; methods: string[] };

const select = {
  id: true,
  email: true,
  name: true,
  role: true,
  createdAt: true,
  accounts: { select: { providerId: true } },
} as const;

type Selected = {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
  accounts: { providerId: string }[];
};

const toRow = ({ accounts, ...user }: Selected): UserRow => ({
  ...user,
  methods: [...new Set(accounts.map((a) => (a.providerId === "credential" ? "password" : a.providerId)))].sort(),
});

export async function listUserRows(db: Db): Promise<UserRow[]> {
  return (await db.user.findMany({ select, orderBy: [{ createdAt: "asc" }, { email: "asc" }] })).map(toRow);
}

export async function findUserRow(db: Db, id: string): Promise<UserRow | null> {
  const row = await db.user.findUnique({ where: { id }, select });
  return row && toRow(row);
}

export async function countUsers(db: Db): Promise<number> {
  return db.user.count();
}

export async function countAdmins(db: Db): Promise<number> {
  return db.user.count({ where: { role: "admin" } });
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

/** Changes a role unless that would leave no admin; false when it would. */
export async function updateUserRole(db: Db, id: string, role: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    // One role change at a time, so two admins cannot demote each other into none.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('latency_budgets.user_roles'))`;
    const current = await tx.user.findUniqueOrThrow({ where: { id }, select: { role: true } });
    if (current.role === "admin" && role !== "admin" && (await tx.user.count({ where: { role: "admin" } })) <= 1)
      return false;
    await tx.user.update({ where: { id }, data: { role, updatedAt: new Date() } });
    return true;
  });
}

/** Creates the first user, only while there is none; false when someone else was first. */
export async function insertFirstUser(
  db: Db,
  data: { id: string; email: string; name: string; role: string; passwordHash: string },
): Promise<UserRow | null> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('latency_budgets.first_user'))`;
    if ((await tx.user.count()) > 0) return null;
    return insertPasswordUser(tx, data);
  });
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  return (await db.user.findUnique({ where: { email }, select: { id: true } }))?.id ?? null;
}
