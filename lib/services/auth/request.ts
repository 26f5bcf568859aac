import "server-only";
import { db } from "@/lib/db/client";
import { findTokenBySecretHash, touchTokenRow } from "@/lib/db/tokens";
import { ROLES, type Role } from "@/lib/domain/rights";
import { AppError } from "@/lib/errors";
import { ANONYMOUS, type Actor, type UserRef } from "../actor";
import { isAlertmanagerToken } from "../alerts";
import { auth } from "./better-auth";
import { hashTokenSecret, TOKEN_PREFIX } from "./tokens";

const asRole = (value: unknown): Role => (ROLES.includes(value as Role) ? (value as Role) : "viewer");

const invalidToken = (why: string) =>
  new AppError("UNAUTHORIZED", `${why} Create a new token under Settings → API tokens.`);

async function tokenActor(secret: string): Promise<Actor> {
  const row = await findTokenBySecretHash(db(), hashTokenSecret(secret));
  const now = new Date();
  if (!row) throw invalidToken("This API token is not valid.");
  if (row.revokedAt) throw invalidToken("This API token was revoked.");
  if (row.expiresAt && row.expiresAt <= now) throw invalidToken("This API token has expired.");
  if (row.user.deactivatedAt)
    throw new AppError(
      "UNAUTHORIZED",
      "The owner of this API token is deactivated: its tokens stop working until an admin reactivates them.",
    );
  // Last use is kept to the minute: most requests of a busy CI job write nothing.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= 60_000) await touchTokenRow(db(), row.id, now);
  const user: UserRef = { id: row.user.id, email: row.user.email, name: row.user.name, role: asRole(row.user.role) };
  return { kind: "token", id: row.id, name: row.name, scopes: row.scopes, user };
}

/**
 * Who sent a request: an API token or Alertmanager's token (Authorization: Bearer …), else the
 * session cookie's user, else nobody. A bearer that is neither is refused, never read as nobody.
 */
export async function actorFromHeaders(headers: Headers): Promise<Actor> {
  const authorization = headers.get("authorization");
  if (authorization) {
    const secret = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
    if (!secret) throw new AppError("UNAUTHORIZED", "Send the token as Authorization: Bearer <token>.");
    if (secret.startsWith(TOKEN_PREFIX)) return tokenActor(secret);
    if (isAlertmanagerToken(secret)) return { kind: "alertmanager" };
    throw new AppError(
      "UNAUTHORIZED",
      "This bearer token is not valid: send an API token (Authorization: Bearer lb_…) or, from Alertmanager, LB_ALERTMANAGER_TOKEN.",
    );
  }
  const session = await auth().api.getSession({ headers });
  // Deactivation deletes sessions; a session made in the same instant is refused here.
  if (!session || (session.user as { deactivatedAt?: unknown }).deactivatedAt) return ANONYMOUS;
  const { id, email, name } = session.user;
  return {
    kind: "user",
    id,
    email,
    name,
    role: asRole((session.user as { role?: unknown }).role),
    sessionToken: session.session.token,
  };
}
