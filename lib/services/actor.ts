import "server-only";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";

/** Who is acting. Every mutation takes one, so authorization and the audit trail attach here. */
export type Actor = { name: string };

/** Until sign-in exists, everyone acts as the configured local user. */
export function currentActor(): Actor {
  return { name: env().LB_DEFAULT_AUTHOR };
}

/** What every mutation takes: where, who, and the caller's unvalidated input. */
export type Mutation = { db: Db; actor: Actor; input: unknown };

/** A mutation of one service's data. */
export type ServiceMutation = Mutation & { slug: string };
