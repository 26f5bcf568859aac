import "server-only";
import { db } from "@/lib/db/client";
import { ACTIONS, type Action } from "@/lib/domain/rights";
import { env } from "@/lib/env";
import { isAllowed, userOf, type Actor, type UserRef } from "../actor";
import { ssoOption } from "./better-auth";
import { actorFromHeaders } from "./request";
import { needsSetup } from "./users";

export type Viewer = {
  user: UserRef | null;
  anonymous: boolean;
  /** For a token: its name and scopes. */
  token: { id: string; name: string; scopes: string[] } | null;
  /** Every action of the rights table, and whether this caller may do it. */
  can: Record<Action, boolean>;
  anonymousView: boolean;
  sso: { providerId: string; name: string } | null;
  needsSetup: boolean;
};

export async function viewerOf(actor: Actor): Promise<Viewer> {
  const can = Object.fromEntries(
    (Object.keys(ACTIONS) as Action[]).map((action) => [action, isAllowed(actor, action)]),
  ) as Record<Action, boolean>;
  const user = userOf(actor);
  return {
    user: user && { id: user.id, email: user.email, name: user.name, role: user.role },
    anonymous: actor.kind === "anonymous",
    token: actor.kind === "token" ? { id: actor.id, name: actor.name, scopes: actor.scopes } : null,
    can,
    anonymousView: env().LB_ANONYMOUS_VIEW,
    sso: ssoOption(),
    needsSetup: actor.kind === "anonymous" && (await needsSetup(db())),
  };
}

/** GET /api/me: who the caller is and what they may do. */
export async function describeActor(headers: Headers): Promise<Viewer> {
  return viewerOf(await actorFromHeaders(headers));
}
