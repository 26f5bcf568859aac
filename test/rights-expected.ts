import { ACTIONS, type Action, type Role } from "@/lib/domain/rights";
import type { Actor } from "@/lib/services/actor";

export type MatrixActor = { label: string; actor: Actor; role?: Role; scopes?: string[] };

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/**
 * What the rights table promises, spelled out on its own: nobody gets 401; Alertmanager may only
 * deliver; a user needs the rule's role; a token needs its owner's role and the rule's scope.
 */
export function expectedOutcome(
  action: Action,
  { actor, role, scopes }: Omit<MatrixActor, "label">,
): "allowed" | 401 | 403 {
  const rule = ACTIONS[action] as { role: Role | null; scope: string | null };
  if (actor.kind === "anonymous") return 401;
  if (actor.kind === "alertmanager") return action === "alert.receive" ? "allowed" : 403;
  if (rule.role === null) return 403;
  const ownerRole = actor.kind === "token" ? actor.user.role : role!;
  if (RANK[ownerRole] < RANK[rule.role]) return 403;
  if (actor.kind === "token" && (rule.scope === null || !scopes!.includes(rule.scope))) return 403;
  return "allowed";
}
