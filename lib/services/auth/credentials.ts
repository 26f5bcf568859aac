import "server-only";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import type { Db } from "@/lib/db/client";
import { forgetSignInFailures, releaseSignInAttempt, reserveSignInAttempt } from "@/lib/db/sign-in-failures";
import { deleteSessions, findPasswordHash, updatePasswordHash } from "@/lib/db/users";
import { plural } from "@/lib/domain/format";
import { AppError } from "@/lib/errors";
import { limiterKey } from "@/lib/net/client-address";
import { passwordChangeSchema, passwordResetSchema } from "@/lib/schemas/account";
import { parseInput } from "@/lib/schemas/parse";
import { userOf, type Actor, type Mutation } from "../actor";
import { recordAudit } from "../audit";
import { mutation } from "../mutation";
import { SIGN_IN_LIMITS } from "./sign-in";
import { findUserOrThrow, userView, type UserView } from "./users";

// Passwords and sessions: an admin resets someone's password or signs them out everywhere;
// everyone changes their own password. Each ends sessions, and each is audited with its change.

/** An admin sets a new password for someone who signs in with one; their sessions end. */
export const resetPassword = mutation(
  "user.password",
  async ({ db, actor, id, input }: Mutation & { id: string }): Promise<UserView> => {
    const { password } = parseInput(passwordResetSchema, input, "The password");
    const user = await findUserOrThrow(db, id);
    const passwordHash = await hashPassword(password);
    await db.$transaction(async (tx) => {
      if (!(await updatePasswordHash(tx, id, passwordHash)))
        throw new AppError("CONFLICT", `${user.email} signs in through single sign-on and has no password here.`, {
          password: "No password sign-in",
        });
      const ended = await deleteSessions(tx, id);
      await recordAudit(tx, actor, {
        action: "user.password-reset",
        target: user.email,
        summary: `Reset the password of ${user.email}; ended ${plural(ended, "session")}`,
      });
    });
    return userView(user);
  },
);

/** An admin signs someone out everywhere: every session ends; tokens are revoked separately. */
export const endSessions = mutation(
  "user.sessions",
  async ({ db, actor, id }: { db: Db; actor: Actor; id: string }): Promise<{ sessionsEnded: number }> => {
    const user = await findUserOrThrow(db, id);
    const sessionsEnded = await db.$transaction(async (tx) => {
      const ended = await deleteSessions(tx, id);
      await recordAudit(tx, actor, {
        action: "user.sign-out-everywhere",
        target: user.email,
        summary: `Signed ${user.email} out everywhere: ended ${plural(ended, "session")}`,
      });
      return ended;
    });
    return { sessionsEnded };
  },
);

/**
 * Anyone signed in changes their own password with the current one; their other sessions end.
 * A wrong current password counts against the sign-in limit, so a stolen session cannot guess.
 */
export const changeOwnPassword = mutation(
  "me.password",
  async ({ db, actor, input, address }: Mutation & { address: string }): Promise<{ sessionsEnded: number }> => {
    const me = userOf(actor)!;
    const { currentPassword, newPassword } = parseInput(passwordChangeSchema, input, "The password change");
    const now = new Date();
    const since = new Date(now.getTime() - SIGN_IN_LIMITS.windowMinutes * 60_000);
    const hash = await findPasswordHash(db, me.id);
    if (!hash)
      throw new AppError("CONFLICT", "You sign in through single sign-on: change your password with your provider.", {
        currentPassword: "No password sign-in",
      });
    // Reserved before the check, as at sign-in: parallel guesses get no more checks than the limit.
    const reserved = await reserveSignInAttempt(db, {
      email: me.email,
      address: limiterKey(address),
      at: now,
      since,
      limits: SIGN_IN_LIMITS,
    });
    if (reserved.id === null)
      throw new AppError(
        "TOO_MANY_REQUESTS",
        `Too many wrong passwords: wait ${SIGN_IN_LIMITS.windowMinutes} minutes.`,
      );
    if (!(await verifyPassword({ hash, password: currentPassword }))) {
      await forgetSignInFailures(db, since);
      throw new AppError("VALIDATION_FAILED", "The current password is not right.", {
        currentPassword: "This is not your current password",
      });
    }
    await releaseSignInAttempt(db, reserved.id);
    const newHash = await hashPassword(newPassword);
    const sessionsEnded = await db.$transaction(async (tx) => {
      await updatePasswordHash(tx, me.id, newHash);
      const ended = await deleteSessions(tx, me.id, actor.kind === "user" ? actor.sessionToken : undefined);
      await recordAudit(tx, actor, {
        action: "user.password-change",
        target: me.email,
        summary: `Changed their own password; ended ${plural(ended, "other session")}`,
        address,
      });
      return ended;
    });
    return { sessionsEnded };
  },
);
