import "server-only";
import type { Action } from "@/lib/domain/rights";
import type { Db } from "@/lib/db/client";
import { authorize, type Actor } from "./actor";
import { settleAuthChange } from "./auth/actor-cache";

/** Changes that can take access away: every instance forgets its cached actors before they answer. */
const TAKES_ACCESS_AWAY: ReadonlySet<Action> = new Set([
  "user.role",
  "user.deactivate",
  "user.password",
  "user.sessions",
  "me.password",
  "token.revoke",
]);

/** Notifies every instance through PostgreSQL (the embedded database has only this one). */
export const notifyAuthChange = (db: Db) =>
  settleAuthChange((payload) => db.$executeRaw`SELECT pg_notify('lb_auth_changes', ${payload})`);

/** A service function checked against an action before it runs. */
export type GuardedFunction<Args extends { actor: Actor }, Result> = ((args: Args) => Promise<Result>) & {
  readonly action: Action;
  readonly kind: "mutation" | "read";
};

function guarded<Args extends { actor: Actor }, Result>(
  kind: "mutation" | "read",
  action: Action,
  run: (args: Args) => Promise<Result>,
): GuardedFunction<Args, Result> {
  const checked = async (args: Args) => {
    authorize(args.actor, action);
    const result = await run(args);
    const { db } = args as { db?: Db };
    if (TAKES_ACCESS_AWAY.has(action) && db) await notifyAuthChange(db);
    return result;
  };
  return Object.assign(checked, { action, kind });
}

/**
 * Declares a mutation: the actor is authorized for `action` before `run` starts. Every exported
 * service function that takes an actor is declared this way or with guardedRead; the rights
 * matrix test finds any that is not.
 */
export const mutation = <Args extends { actor: Actor }, Result>(action: Action, run: (args: Args) => Promise<Result>) =>
  guarded("mutation", action, run);

/** A read with rights beyond "may view" (users, tokens, the audit trail). */
export const guardedRead = <Args extends { actor: Actor }, Result>(
  action: Action,
  run: (args: Args) => Promise<Result>,
) => guarded("read", action, run);
