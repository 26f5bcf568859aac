import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { findTokenRow, insertToken, listTokenRows, revokeTokenRow, type TokenRow } from "@/lib/db/tokens";
import { scopesFor } from "@/lib/domain/rights";
import { createTokenSchema } from "@/lib/schemas/account";
import { AppError } from "@/lib/errors";
import { parseInput, isUuid } from "@/lib/schemas/parse";
import { userOf, type Actor, type Mutation } from "../actor";
import { recordAudit } from "../audit";
import { guardedRead, mutation } from "../mutation";

/** Every token starts with this, so secret scanners and people can recognise one. */
export const TOKEN_PREFIX = "lb_";

export type TokenView = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  owner?: string;
};

export const hashTokenSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex");

const toView = (row: TokenRow & { userEmail?: string }): TokenView => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  ...(row.userEmail && { owner: row.userEmail }),
});

/** Creates a token for the signed-in user; the secret is in the answer and nowhere else. */
export const createToken = mutation(
  "token.create",
  async ({ db, actor, input }: Mutation): Promise<TokenView & { token: string }> => {
    const user = userOf(actor)!;
    const data = parseInput(createTokenSchema, input, "The token");
    const allowed = scopesFor(user.role);
    const refused = data.scopes.filter((scope) => !allowed.includes(scope));
    if (refused.length)
      throw new AppError("VALIDATION_FAILED", "The token has 1 invalid field.", {
        scopes: `As ${user.role === "viewer" ? "a" : "an"} ${user.role} you can give a token only ${allowed.join(", ")} (not ${refused.join(", ")})`,
      });
    const secret = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
    const row = await db.$transaction(async (tx) => {
      const inserted = await insertToken(tx, {
        userId: user.id,
        name: data.name,
        prefix: secret.slice(0, 10),
        secretHash: hashTokenSecret(secret),
        scopes: data.scopes,
        expiresAt: new Date(Date.now() + data.expiresInDays * 86400_000),
      });
      await recordAudit(tx, actor, {
        action: "token.create",
        target: data.name,
        summary: `Created API token “${data.name}” (${data.scopes.join(", ")}), expiring in ${data.expiresInDays} days`,
      });
      return inserted;
    });
    return { ...toView(row), token: secret };
  },
);

const listQuerySchema = z.object({ all: z.enum(["0", "1", "true", "false"]).optional() });

/** The actor's own tokens; an admin asking for `all` sees everyone's, with their owners. */
export const listTokens = guardedRead(
  "token.list",
  async ({ db, actor, query = {} }: { db: Db; actor: Actor; query?: unknown }): Promise<TokenView[]> => {
    const user = userOf(actor)!;
    const { all } = parseInput(listQuerySchema, query, "The query");
    const everyone = all === "1" || all === "true";
    if (everyone && user.role !== "admin") throw new AppError("FORBIDDEN", "Only admins can list everyone's tokens.");
    return (await listTokenRows(db, everyone ? null : user.id)).map(toView);
  },
);

/** Revokes one of the actor's tokens (an admin: anyone's). Someone else's token is simply not found. */
export const revokeToken = mutation(
  "token.revoke",
  async ({ db, actor, id }: { db: Db; actor: Actor; id: string }): Promise<TokenView> => {
    const user = userOf(actor)!;
    const row = isUuid(id) ? await findTokenRow(db, id) : null;
    if (!row || (row.userId !== user.id && user.role !== "admin")) throw new AppError("NOT_FOUND", "No such token.");
    await db.$transaction(async (tx) => {
      if (await revokeTokenRow(tx, id, new Date()))
        await recordAudit(tx, actor, {
          action: "token.revoke",
          target: row.name,
          summary: `Revoked API token “${row.name}”${row.userId !== user.id ? " of another user" : ""}`,
        });
    });
    return toView((await findTokenRow(db, id))!);
  },
);
