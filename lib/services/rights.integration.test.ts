import { afterAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { ACTIONS, ROLES, SCOPES, type Role } from "@/lib/domain/rights";
import { AppError } from "@/lib/errors";
import { newUser } from "@/test/credentials";
import { expectedOutcome, type MatrixActor } from "@/test/rights-expected";
import { RIGHTS_CASES, fixture } from "@/test/rights-cases";
import type { Actor } from "./actor";
import type { GuardedFunction } from "./mutation";

// The rights matrix, through the service functions: every guarded function × every kind of
// actor, the outcome the rights table (lib/domain/rights.ts) promises, and nothing written
// (no audit entry) when refused.

process.env.LB_ALERTMANAGER_TOKEN = "rights-matrix-alertmanager-token";
afterAll(() => db().$disconnect());

type Guarded = GuardedFunction<{ actor: Actor }, unknown>;

/** Every export of lib/services, by "<file>#<name>". */
function serviceExports(): Map<string, unknown> {
  const modules = import.meta.glob<Record<string, unknown>>(["./**/*.ts", "!./**/*.test.ts"], { eager: true });
  const found = new Map<string, unknown>();
  for (const [path, module] of Object.entries(modules))
    for (const [name, value] of Object.entries(module)) found.set(`${path.slice(2, -3)}#${name}`, value);
  return found;
}

/** A function whose first parameter destructures an actor: a use case acting for someone. */
const takesActor = (fn: unknown) =>
  typeof fn === "function" && /^(async\s*)?(function\s*\w*\s*)?\(\s*\{[^)]*\bactor\b/.test(fn.toString());

const kind = inject("databaseKind");

describe(`rights matrix through lib/services (${kind})`, async () => {
  const exported = serviceExports();
  const guarded = [...exported].filter(([, fn]) => typeof fn === "function" && "action" in fn) as [string, Guarded][];

  it("covers every guarded function, and every function that takes an actor is guarded", () => {
    const unguarded = [...exported].filter(([, fn]) => takesActor(fn) && !("action" in (fn as object))).map(([k]) => k);
    expect(unguarded, "declare these with mutation() or guardedRead()").toEqual([]);
    expect(guarded.map(([key]) => key).sort(), "add a row to test/rights-cases.ts").toEqual(
      Object.keys(RIGHTS_CASES).sort(),
    );
    expect(guarded.length).toBeGreaterThanOrEqual(20);
  });

  it("the detector sees an unguarded mutation (the coverage check can fail)", () => {
    const sneaky = async ({ actor }: { actor: Actor }) => actor;
    expect(takesActor(sneaky)).toBe(true);
    expect(
      takesActor(async function named({ db: _db, actor }: { db: unknown; actor: Actor }) {
        return actor;
      }),
    ).toBe(true);
    expect(takesActor(async ({ db: _db }: { db: unknown }) => null)).toBe(false);
  });

  const users = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, await newUser(role)]))) as Record<
    Role,
    Actor & { kind: "user" }
  >;
  const admin = users.admin;

  /** Every kind of caller, for one action: tokens of an admin with and without the scope it needs. */
  function actorsFor(action: keyof typeof ACTIONS): MatrixActor[] {
    const scope = ACTIONS[action].scope;
    const withScope = scope ? [scope] : [...SCOPES];
    const withoutScope = SCOPES.filter((s) => s !== scope);
    const token = (scopes: string[], label: string): MatrixActor => ({
      label,
      actor: { kind: "token", id: `token-${label}`, name: label, scopes, user: admin },
      scopes,
    });
    return [
      { label: "anonymous", actor: { kind: "anonymous" } },
      ...ROLES.map((role) => ({ label: role, actor: users[role], role })),
      token(withScope, "token with scope"),
      token(withoutScope, "token without scope"),
      { label: "alertmanager", actor: { kind: "alertmanager" } },
    ];
  }

  async function auditCount(): Promise<number> {
    return db().auditEntry.count();
  }

  for (const [key, fn] of guarded) {
    const row = RIGHTS_CASES[key];
    if (!row) continue;
    it(`${key} (${row.action})`, async () => {
      expect(fn.action, `${key} is checked against the wrong action`).toBe(row.action);
      for (const { label, actor, role, scopes } of actorsFor(row.action)) {
        const expected = expectedOutcome(row.action, { actor, role, scopes });
        const f = await fixture(actor, row.needs);
        const before = await auditCount();
        const outcome = await row.service(actor, f).then(
          () => "allowed" as const,
          (error: unknown) => error,
        );
        const where = `${key} as ${label}`;
        if (expected === "allowed") {
          if (row.allowedError) expect((outcome as AppError).code, where).toBe(row.allowedError);
          else expect(outcome, where).toBe("allowed");
          if (fn.kind === "mutation" && !row.allowedError)
            expect(await auditCount(), `${where}: every mutation leaves an audit entry`).toBeGreaterThan(before);
        } else {
          expect(outcome, where).toBeInstanceOf(AppError);
          expect((outcome as AppError).code, where).toBe(expected === 401 ? "UNAUTHORIZED" : "FORBIDDEN");
          expect(await auditCount(), `${where}: a refused call writes nothing`).toBe(before);
        }
      }
    });
  }
});
