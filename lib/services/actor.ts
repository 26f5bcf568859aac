import "server-only";
import type { Db } from "@/lib/db/client";
import { decide, type Action, type Principal, type Role } from "@/lib/domain/rights";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

export type UserRef = { id: string; email: string; name: string; role: Role };

/**
 * Who is acting. Every service call that changes something takes one and checks it here, so
 * rights hold whatever the caller (a page, a route, a script) is.
 */
export type Actor =
  | { kind: "anonymous" }
  /** A signed-in person; `sessionToken` names the session the request came with. */
  | ({ kind: "user"; sessionToken?: string } & UserRef)
  | { kind: "token"; id: string; name: string; scopes: string[]; user: UserRef }
  /** The app itself: the launcher's seed and the demo; never built from a request. */
  | { kind: "system"; name: string }
  /** Alertmanager, authenticated by its own webhook token. */
  | { kind: "alertmanager" };

export const ANONYMOUS: Actor = { kind: "anonymous" };

export const systemActor = (name: string): Actor => ({ kind: "system", name });

/** What every mutation takes: where, who, and the caller's unvalidated input. */
export type Mutation = { db: Db; actor: Actor; input: unknown };

/** A mutation of one service's data. */
export type ServiceMutation = Mutation & { slug: string };

function principalOf(actor: Actor): Principal | null {
  switch (actor.kind) {
    case "user":
      return { role: actor.role };
    case "token":
      return { role: actor.user.role, scopes: actor.scopes };
    default:
      return null;
  }
}

/**
 * Refuses what the actor may not do: 401 for nobody, 403 for a role or scope that may not.
 * The system may do everything; Alertmanager only what its own webhook checks for.
 */
export function authorize(actor: Actor, action: Action): void {
  if (actor.kind === "system") return;
  if (actor.kind === "alertmanager") {
    if (action === "alert.receive") return;
    throw new AppError("FORBIDDEN", "Alertmanager's token only delivers notifications.");
  }
  if (actor.kind === "anonymous") {
    if (action === "read" && env().LB_ANONYMOUS_VIEW) return;
    if (action === "alert.receive")
      throw new AppError("UNAUTHORIZED", "Send the configured token: Authorization: Bearer <LB_ALERTMANAGER_TOKEN>.");
    assertIdentified(actor);
  }
  const principal = principalOf(actor)!;
  const decision = decide(principal, action);
  if (!decision.allowed) throw new AppError("FORBIDDEN", decision.reason);
}

/** Refuses nobody before anything is read: every change needs a user, a token or Alertmanager. */
export function assertIdentified(actor: Actor): void {
  if (actor.kind === "anonymous")
    throw new AppError("UNAUTHORIZED", "Sign in, or send an API token as Authorization: Bearer <token>.");
}

/** Whether the actor may do it, for pages that hide what a role may not do. */
export function isAllowed(actor: Actor, action: Action): boolean {
  try {
    authorize(actor, action);
    return true;
  } catch {
    return false;
  }
}

/** The user behind the actor: the signed-in user, or a token's owner. */
export function userOf(actor: Actor): UserRef | null {
  if (actor.kind === "user") return actor;
  if (actor.kind === "token") return actor.user;
  return null;
}

/** How revisions, uploads and decisions name their author. */
export function authorOf(actor: Actor): string {
  const label = (() => {
    switch (actor.kind) {
      case "user":
        return actor.email;
      case "token":
        return `${actor.user.email} (token ${actor.name})`;
      case "system":
        return actor.name;
      case "alertmanager":
        return "alertmanager";
      case "anonymous":
        return "anonymous";
    }
  })();
  return label.slice(0, 120);
}

/** Who did it, as the audit trail and annotations store it: copied, so it outlives the actor. */
export function actorColumns(actor: Actor) {
  switch (actor.kind) {
    case "user":
      return { actorKind: "user", actorId: actor.id, actorName: actor.email, ownerId: null };
    case "token":
      return {
        actorKind: "token",
        actorId: actor.id,
        actorName: `${actor.name} (${actor.user.email})`,
        ownerId: actor.user.id,
      };
    case "system":
      return { actorKind: "system", actorId: null, actorName: actor.name, ownerId: null };
    case "alertmanager":
      return { actorKind: "alertmanager", actorId: null, actorName: "alertmanager", ownerId: null };
    case "anonymous":
      return { actorKind: "anonymous", actorId: null, actorName: "anonymous", ownerId: null };
  }
}
