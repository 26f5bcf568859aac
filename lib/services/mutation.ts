import "server-only";
import type { Action } from "@/lib/domain/rights";
import { authorize, type Actor } from "./actor";

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
    return run(args);
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
