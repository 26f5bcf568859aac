import "server-only";
import type { Db } from "./client";
import type { Client } from "./users";

export type TokenRow = {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
};

export type TokenOwner = { id: string; email: string; name: string; role: string; deactivatedAt: Date | null };

const select = {
  id: true,
  userId: true,
  name: true,
  prefix: true,
  scopes: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
  createdAt: true,
} as const;

export async function insertToken(
  db: Client,
  data: { userId: string; name: string; prefix: string; secretHash: string; scopes: string[]; expiresAt: Date | null },
): Promise<TokenRow> {
  return db.apiToken.create({ data, select });
}

export async function findTokenBySecretHash(
  db: Db,
  secretHash: string,
): Promise<(TokenRow & { user: TokenOwner }) | null> {
  return db.apiToken.findUnique({
    where: { secretHash },
    select: { ...select, user: { select: { id: true, email: true, name: true, role: true, deactivatedAt: true } } },
  });
}

export async function findTokenRow(db: Db, id: string): Promise<TokenRow | null> {
  return db.apiToken.findUnique({ where: { id }, select });
}

/** Newest first; with no user, everyone's (with the owner's email). */
export async function listTokenRows(db: Db, userId: string | null): Promise<(TokenRow & { userEmail: string })[]> {
  const rows = await db.apiToken.findMany({
    where: userId ? { userId } : {},
    select: { ...select, user: { select: { email: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(({ user, ...row }) => ({ ...row, userEmail: user.email }));
}

/** Revokes a token that is not revoked yet; false when it already was. */
export async function revokeTokenRow(db: Client, id: string, at: Date): Promise<boolean> {
  const result = await db.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
  return result.count === 1;
}

/** Records use at most once a minute, so a busy CI job does not write on every request. */
export async function touchTokenRow(db: Db, id: string, at: Date): Promise<void> {
  await db.apiToken.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(at.getTime() - 60_000) } }] },
    data: { lastUsedAt: at },
  });
}
