import "server-only";
import { db } from "@/lib/db/client";
import { findTokenBySecretHash, touchTokenRow } from "@/lib/db/tokens";
import { ROLES, type Role } from "@/lib/domain/rights";
import { AppError } from "@/lib/errors";
import { ANONYMOUS, type Actor, type UserRef } from "../actor";
import { isAlertmanagerToken } from "../alerts";
import { createHash } from "node:crypto";
import { cachedActor } from "./actor-cache";
import { auth } from "./better-auth";
import { hashTokenSecret, TOKEN_PREFIX } from "./tokens";

const asRole = (value: unknown): Role => (ROLES.includes(value as Role) ? (value as Role) : "viewer");

const invalidToken = (why: string) =>
  new AppError("UNAUTHORIZED", `${why} Create a new token under Settings → API tokens.`);

/** Token id → when its last use was written: last use is kept to the minute. */
const lastTouched = new Map<string, number>();
const TOUCH_EVERY_MS = 60_000;

async function tokenActor(secret: string): Promise<Actor> {
  const secretHash = hashTokenSecret(secret);
  const actor = await cachedActor(`token:${secretHash}`, async () => {
    const row = await findTokenBySecretHash(db(), secretHash);
    const now = new Date();
    if (!row) throw invalidToken("This API token is not valid.");
    if (row.revokedAt) throw invalidToken("This API token was revoked.");
    if (row.expiresAt && row.expiresAt <= now) throw invalidToken("This API token has expired.");
    if (row.user.deactivatedAt)
      throw new AppError(
        "UNAUTHORIZED",
        "The owner of this API token is deactivated: its tokens stop working until an admin reactivates them.",
      );
    if (row.lastUsedAt) lastTouched.set(row.id, row.lastUsedAt.getTime());
    const user: UserRef = { id: row.user.id, email: row.user.email, name: row.user.name, role: asRole(row.user.role) };
    return { actor: { kind: "token", id: row.id, name: row.name, scopes: row.scopes, user }, expiresAt: row.expiresAt };
  });
  // Most requests of a busy CI job write nothing: last use is written at most once a minute.
  const now = Date.now();
  if (actor.kind === "token" && now - (lastTouched.get(actor.id) ?? 0) >= TOUCH_EVERY_MS) {
    if (lastTouched.size >= 10_000) lastTouched.clear();
    lastTouched.set(actor.id, now);
    await touchTokenRow(db(), actor.id, new Date(now));
  }
  return actor;
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
  const cookie = headers.get("cookie");
  if (!cookie?.includes("session_token")) return ANONYMOUS;
  const key = `cookie:${createHash("sha256").update(cookie).digest("hex")}`;
  return cachedActor(key, async () => {
    const session = await auth().api.getSession({ headers });
    // Deactivation deletes sessions; a session made in the same instant is refused here.
    if (!session || (session.user as { deactivatedAt?: unknown }).deactivatedAt) return { actor: ANONYMOUS };
    const { id, email, name } = session.user;
    return {
      actor: {
        kind: "user",
        id,
        email,
        name,
        role: asRole((session.user as { role?: unknown }).role),
        sessionToken: session.session.token,
      },
      expiresAt: session.session.expiresAt,
    };
  });
}
