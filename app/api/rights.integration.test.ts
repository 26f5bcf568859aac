import { afterAll, describe, expect, inject, it } from "vitest";
import * as bucketsRoute from "@/app/api/prometheus/buckets/route";
import * as servicesRoute from "@/app/api/services/route";
import { db } from "@/lib/db/client";
import { ACTIONS, ROLES, SCOPES, type Role } from "@/lib/domain/rights";
import { ERROR_STATUS } from "@/lib/errors";
import { newToken, newUser, sessionCookie } from "@/test/credentials";
import { call, type Handler } from "@/test/http";
import { RIGHTS_CASES, fixture } from "@/test/rights-cases";
import { expectedOutcome } from "@/test/rights-expected";
import type { Actor } from "@/lib/services/actor";

// The rights matrix through the HTTP API: the same table as the service-level matrix, with real
// credentials (a session cookie from signing in, API tokens, Alertmanager's token) → 401 without
// credentials, 403 for a role or scope that may not, 2xx otherwise.

const ALERTMANAGER_TOKEN = "rights-matrix-alertmanager-token";
process.env.LB_ALERTMANAGER_TOKEN = ALERTMANAGER_TOKEN;
afterAll(() => db().$disconnect());

type Caller = { label: string; headers: Record<string, string>; actor: Actor; role?: Role; scopes?: string[] };

describe(`rights matrix through the HTTP API (${inject("databaseKind")})`, async () => {
  const users = await Promise.all(ROLES.map(async (role) => ({ role, user: await newUser(role) })));
  const sessions: Caller[] = await Promise.all(
    users.map(async ({ role, user }) => ({
      label: `${role} (session)`,
      headers: { cookie: await sessionCookie(user.email) },
      actor: user,
      role,
    })),
  );
  const tokenCache = new Map<string, Promise<string>>();
  const tokenFor = (scopes: string[]) => {
    const key = scopes.join(" ");
    if (!tokenCache.has(key)) tokenCache.set(key, newToken("admin", scopes));
    return tokenCache.get(key)!;
  };

  async function callersFor(action: keyof typeof ACTIONS): Promise<Caller[]> {
    const scope = ACTIONS[action].scope;
    const withScope = scope ? [scope] : [...SCOPES];
    const withoutScope = SCOPES.filter((s) => s !== scope);
    const admin = users.find((u) => u.role === "admin")!.user;
    const token = async (scopes: string[], label: string): Promise<Caller> => ({
      label,
      headers: { authorization: `Bearer ${await tokenFor(scopes)}` },
      actor: { kind: "token", id: label, name: label, scopes, user: admin },
      scopes,
    });
    return [
      { label: "no credentials", headers: {}, actor: { kind: "anonymous" } },
      ...sessions,
      await token(withScope, "token with the scope"),
      await token(withoutScope, "token without the scope"),
      {
        label: "alertmanager",
        headers: { authorization: `Bearer ${ALERTMANAGER_TOKEN}` },
        actor: { kind: "alertmanager" },
      },
    ];
  }

  for (const [key, row] of Object.entries(RIGHTS_CASES)) {
    it(`${key} (${row.action})`, async () => {
      for (const caller of await callersFor(row.action)) {
        const expected = expectedOutcome(row.action, caller);
        const f = await fixture(caller.actor, row.needs);
        const { handler, ...request } = row.http(f);
        const { status, body } = await call(handler, {
          ...request,
          as: null,
          headers: { ...request.headers, ...caller.headers },
        });
        const where = `${key} as ${caller.label}: ${JSON.stringify(body)}`;
        if (expected === "allowed") {
          if (row.allowedError) expect(status, where).toBe(ERROR_STATUS[row.allowedError]);
          else expect(status, where).toBeLessThan(300);
        } else {
          expect(status, where).toBe(expected);
          expect(body.error.message, where).toMatch(/\w/);
        }
      }
    });
  }

  it("reads: 401 without credentials (anonymous viewing is off), 403 for a token without read", async () => {
    const handler = servicesRoute.GET as Handler;
    expect((await call(handler, { as: null })).status).toBe(401);
    expect((await call(handler, { as: await tokenFor(["write:budgets"]) })).status).toBe(403);
    expect((await call(handler, { as: await tokenFor(["read"]) })).status).toBe(200);
    expect((await call(handler, { as: null, headers: sessions[0]!.headers })).status).toBe(200);
  });

  it("the bucket bounds read, though a POST, needs what any read needs: read for a token, never Alertmanager's", async () => {
    const buckets = bucketsRoute.POST as Handler;
    const json = { source: { preset: "custom", metric: "llm_request_ttft_seconds", matchers: {} } };
    const ask = (as: string | null, headers: Record<string, string> = {}) =>
      call(buckets, { method: "POST", json, as, headers });
    expect((await ask(null)).status).toBe(401);
    expect((await ask(await tokenFor(["write:budgets"]))).status).toBe(403);
    expect((await ask(null, { authorization: `Bearer ${ALERTMANAGER_TOKEN}` })).status).toBe(403);
    // Allowed, then told there is no Prometheus here.
    expect((await ask(await tokenFor(["read"]))).status).toBe(503);
    expect((await ask(null, sessions[0]!.headers)).status).toBe(503);
  });
});
