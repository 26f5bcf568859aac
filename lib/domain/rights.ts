// Who may do what: one table of actions, read by the services that enforce it, the UI that
// hides what a role may not do, and the rights-matrix tests that check both.

export const ROLES = ["viewer", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const SCOPES = ["read", "write:budgets", "write:slos", "write:experiments", "write:annotations"] as const;
export type Scope = (typeof SCOPES)[number];

type Rule = {
  /** The least role that may do it; null when only Alertmanager may (its webhook). */
  role: Role | null;
  /** The scope a token needs for it; null when no token may do it, whatever its scopes. */
  scope: Scope | null;
  /** What the action is, for "only editors can …" messages. */
  does: string;
};

export const ACTIONS = {
  read: { role: "viewer", scope: "read", does: "read dashboards" },
  "service.create": { role: "editor", scope: "write:budgets", does: "create services" },
  "service.delete": { role: "admin", scope: null, does: "delete services" },
  // The three example services with their SLOs and experiment: a person's choice on the first-run page.
  "examples.add": { role: "editor", scope: null, does: "add the example services" },
  "discovery.read": { role: "editor", scope: "read", does: "browse the connected Prometheus's histograms" },
  // Reads of a histogram the caller names (any metric, any labels: the bucket preview, a draft's
  // proposal). A signed-in person or a token with read, never anonymous whatever LB_ANONYMOUS_VIEW says.
  "histogram.read": { role: "viewer", scope: "read", does: "read a histogram you name from Prometheus" },
  "budget.save": { role: "editor", scope: "write:budgets", does: "save budgets" },
  "budget.restore": { role: "editor", scope: "write:budgets", does: "restore budget revisions" },
  "optimization.create": { role: "editor", scope: "write:budgets", does: "edit the optimization catalog" },
  "slo.create": { role: "editor", scope: "write:slos", does: "create SLOs" },
  "slo.update": { role: "editor", scope: "write:slos", does: "edit SLOs" },
  "slo.delete": { role: "editor", scope: "write:slos", does: "delete SLOs" },
  "openslo.import": { role: "editor", scope: "write:slos", does: "import OpenSLO documents" },
  "experiment.create": { role: "editor", scope: "write:experiments", does: "create experiments" },
  "experiment.status": { role: "editor", scope: "write:experiments", does: "stop or decide experiments" },
  "experiment.upload": { role: "editor", scope: "write:experiments", does: "upload experiment results" },
  "experiment.import": { role: "editor", scope: "write:experiments", does: "import results from Prometheus" },
  "annotation.create": { role: "editor", scope: "write:annotations", does: "post annotations" },
  "annotation.delete": { role: "editor", scope: "write:annotations", does: "delete annotations" },
  "token.create": { role: "viewer", scope: null, does: "create API tokens" },
  "token.revoke": { role: "viewer", scope: null, does: "revoke API tokens" },
  "token.list": { role: "viewer", scope: null, does: "list API tokens" },
  "user.list": { role: "admin", scope: null, does: "list users" },
  "user.create": { role: "admin", scope: null, does: "add users" },
  "user.role": { role: "admin", scope: null, does: "change roles" },
  "user.deactivate": { role: "admin", scope: null, does: "deactivate and reactivate people" },
  "user.password": { role: "admin", scope: null, does: "reset people's passwords" },
  "user.sessions": { role: "admin", scope: null, does: "sign people out everywhere" },
  "me.password": { role: "viewer", scope: null, does: "change your own password" },
  "audit.read": { role: "admin", scope: null, does: "read the audit trail" },
  // Why the alert rules are not current: file paths, host:pid, promtool's output. Others get a sentence.
  "rules.detail": { role: "admin", scope: "read", does: "see why the alert rules are not current" },
  "alert.receive": { role: null, scope: null, does: "deliver Alertmanager notifications" },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof ACTIONS;

/** Who is asking, as far as rights go: a role, and for a token its scopes. */
export type Principal = { role: Role; scopes?: readonly string[] };

export function roleAtLeast(role: Role, least: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(least);
}

export type Decision = { allowed: true } | { allowed: false; reason: string };

/** A token may do what both its owner's role and its scopes allow. */
export function decide(principal: Principal, action: Action): Decision {
  const rule: Rule = ACTIONS[action];
  if (rule.role === null) return { allowed: false, reason: `Only Alertmanager, with its own token, can ${rule.does}.` };
  if (!roleAtLeast(principal.role, rule.role)) {
    const who = rule.role === "admin" ? "Admins" : "Editors and admins";
    return { allowed: false, reason: `${who} can ${rule.does}; you are ${article(principal.role)} ${principal.role}.` };
  }
  if (principal.scopes) {
    if (rule.scope === null) return { allowed: false, reason: `API tokens cannot ${rule.does}; sign in instead.` };
    if (!principal.scopes.includes(rule.scope))
      return { allowed: false, reason: `This API token lacks the ${rule.scope} scope needed to ${rule.does}.` };
  }
  return { allowed: true };
}

export const can = (principal: Principal, action: Action): boolean => decide(principal, action).allowed;

/** The scopes a role may hand to its tokens: a viewer's token can only read. */
export function scopesFor(role: Role): Scope[] {
  return SCOPES.filter((scope) =>
    Object.values(ACTIONS).some(
      (rule: Rule) => rule.scope === scope && rule.role !== null && roleAtLeast(role, rule.role),
    ),
  );
}

const article = (role: Role) => (role === "viewer" ? "a" : "an");

/**
 * LB_OIDC_ROLE_MAP read: comma-separated `group=role` entries, role one of viewer, editor, admin
 * as written. Throws naming the first entry that is not one (`sre-leads=Editor`, `a:admin`,
 * `=admin`, `x=root`) or that gives a group a second role: a map read halfway would let a group
 * that is literally called "admin" grant admin.
 */
export function parseRoleMap(mapping: string): Map<string, Role> {
  const mapped = new Map<string, Role>();
  for (const entry of mapping.split(",").map((part) => part.trim())) {
    if (!entry) continue;
    const parts = entry.split("=").map((part) => part.trim());
    const [group, role] = parts as [string, string | undefined];
    if (parts.length !== 2 || !group || !ROLES.includes(role as Role))
      throw new Error(`"${entry}" is not group=role with a role of ${ROLES.join(", ")} (e.g. sre-leads=editor)`);
    if (mapped.has(group) && mapped.get(group) !== role)
      throw new Error(`"${entry}" gives the group "${group}" a second role (it is ${mapped.get(group)} already)`);
    mapped.set(group, role as Role);
  }
  // "," or " , " is a map that maps nothing: read as none, it would make raw role names count.
  if (mapped.size === 0 && mapping.trim() !== "")
    throw new Error(`"${mapping}" has no group=role entry (e.g. sre-leads=editor); leave it empty for no map`);
  return mapped;
}

/**
 * The role an SSO user gets from a claim: a value mapped to one ("sre-leads=editor,platform-admins=admin"),
 * or with no map a role's own name; the highest wins, else the fallback. The map is checked at
 * start (lib/env.ts); one that is not valid throws here too.
 */
export function roleFromClaim(claim: unknown, mapping: string, fallback: Role): Role {
  const values = (Array.isArray(claim) ? claim : [claim]).filter((v): v is string => typeof v === "string");
  const mapped = parseRoleMap(mapping);
  // With a map, only mapped values count: a group that happens to be called "admin" grants nothing.
  const granted = values.flatMap((value) => {
    const role = mapped.size > 0 ? mapped.get(value) : ROLES.includes(value as Role) ? (value as Role) : undefined;
    return role ? [role] : [];
  });
  return granted.reduce<Role>((best, role) => (roleAtLeast(role, best) ? role : best), granted[0] ?? fallback);
}
