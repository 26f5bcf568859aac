import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as auditRoute from "@/app/api/audit/route";
import * as meRoute from "@/app/api/me/route";
import * as servicesRoute from "@/app/api/services/route";
import * as tokenRoute from "@/app/api/tokens/[id]/route";
import * as tokensRoute from "@/app/api/tokens/route";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { newUser, sessionCookie, TEST_PASSWORD } from "@/test/credentials";
import { call, type Handler } from "@/test/http";
import { rejection } from "@/test/rejection";
import { systemActor } from "../actor";
import { listAudit, recordAudit } from "../audit";
import { createService } from "../services";
import { SIGN_IN_LIMITS } from "./sign-in";
import { createToken } from "./tokens";
import { setUserRole } from "./users";

// Accounts end to end through the real handlers and database: API tokens, sign-in limits, the
// audit trail, roles.

afterAll(() => db().$disconnect());

const signInRequest = (email: string, password: string, address = "203.0.113.7") =>
  authRoute.POST(
    new Request("http://localhost/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost", "x-forwarded-for": address },
      body: JSON.stringify({ email, password }),
    }),
  );

describe(`accounts (${inject("databaseKind")})`, () => {
  describe("API tokens", () => {
    it("are shown once, stored only as a hash, and work as Bearer on any route", async () => {
      const owner = await newUser("editor");
      const created = await createToken({
        db: db(),
        actor: owner,
        input: { name: "CI uploads", scopes: ["read", "write:experiments"], expiresInDays: 30 },
      });
      expect(created.token).toMatch(/^lb_[A-Za-z0-9_-]{43}$/);
      expect(created.prefix).toBe(created.token.slice(0, 10));
      const stored = await db().apiToken.findUniqueOrThrow({ where: { id: created.id } });
      expect(JSON.stringify(stored)).not.toContain(created.token.slice(10));
      expect(stored.secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.lastUsedAt).toBeNull();

      const list = await call(servicesRoute.GET as Handler, { as: created.token });
      expect(list.status).toBe(200);
      const listed = await call(tokensRoute.GET as Handler, { as: null, headers: {} });
      expect(listed.status).toBe(401);
      expect((await db().apiToken.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt).not.toBeNull();
      // Nobody can read the secret back.
      const me = await call(meRoute.GET as Handler, { as: created.token });
      expect(me.body).toMatchObject({ user: { email: owner.email }, token: { name: "CI uploads" } });
      expect(JSON.stringify(me.body)).not.toContain(created.token);
    });

    it("a revoked or expired token gets 401 that names the reason, never the secret", async () => {
      const owner = await newUser("editor");
      const revoked = await createToken({ db: db(), actor: owner, input: { name: "old", scopes: ["read"] } });
      const revocation = await call(tokenRoute.DELETE as Handler, {
        method: "DELETE",
        params: { id: revoked.id },
        as: revoked.token.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
      });
      expect(revocation.status).toBe(401);
      expect(JSON.stringify(revocation.body)).not.toContain(revoked.token.slice(3, 20));

      const cookie = await sessionCookie(owner.email);
      const done = await call(tokenRoute.DELETE as Handler, {
        method: "DELETE",
        params: { id: revoked.id },
        as: null,
        headers: { cookie, origin: "http://localhost" },
      });
      expect(done.status).toBe(200);
      expect(done.body.revokedAt).not.toBeNull();
      const refused = await call(servicesRoute.GET as Handler, { as: revoked.token });
      expect(refused).toMatchObject({ status: 401, body: { error: { code: "UNAUTHORIZED" } } });
      expect(refused.body.error.message).toContain("revoked");

      const expiring = await createToken({
        db: db(),
        actor: owner,
        input: { name: "short", scopes: ["read"], expiresInDays: 1 },
      });
      vi.useFakeTimers({ now: Date.now() + 86400_000 + 1000, toFake: ["Date"] });
      try {
        const expired = await call(servicesRoute.GET as Handler, { as: expiring.token });
        expect(expired.status).toBe(401);
        expect(expired.body.error.message).toContain("expired");
      } finally {
        vi.useRealTimers();
      }
    });

    it("refuses scopes a role cannot use, and a token cannot make tokens", async () => {
      const viewer = await newUser("viewer");
      const error = await rejection(
        createToken({ db: db(), actor: viewer, input: { name: "sneaky", scopes: ["read", "write:budgets"] } }),
      );
      expect(error).toMatchObject({ code: "VALIDATION_FAILED" });
      expect(error.fields?.scopes).toContain("only read");
      const editor = await newUser("editor");
      const token = await createToken({ db: db(), actor: editor, input: { name: "ci", scopes: ["read"] } });
      const made = await call(tokensRoute.POST as Handler, {
        method: "POST",
        as: token.token,
        json: { name: "child", scopes: ["read"] },
      });
      expect(made.status).toBe(403);
    });

    it("a demoted owner's token loses the rights at once", async () => {
      const editor = await newUser("editor");
      const token = await createToken({
        db: db(),
        actor: editor,
        input: { name: "ci", scopes: ["read", "write:budgets"] },
      });
      const input = { slug: `demoted-${randomUUID().slice(0, 6)}`, name: "X", stages: [] };
      await setUserRole({ db: db(), actor: systemActor("tests"), id: editor.id, input: { role: "viewer" } });
      const refused = await call(servicesRoute.POST as Handler, { method: "POST", as: token.token, json: input });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe("Editors and admins can create services; you are a viewer.");
    });
  });

  describe("sign-in", () => {
    it(`locks an account after ${SIGN_IN_LIMITS.perAccount} failures, whatever the address, and audits each`, async () => {
      const user = await newUser("viewer");
      for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
        const response = await signInRequest(user.email, "wrong password!!", `198.51.100.${i}`);
        expect(response.status).toBe(401);
        expect(await response.text()).not.toContain("wrong password");
      }
      // Even the right password waits now: the limit is checked before the password.
      const locked = await signInRequest(user.email, TEST_PASSWORD, "198.51.100.99");
      expect(locked.status).toBe(429);
      expect((await locked.json()).error.message).toContain("for this account");
      const failures = await db().auditEntry.findMany({ where: { action: "auth.sign-in-failed", target: user.email } });
      expect(failures).toHaveLength(SIGN_IN_LIMITS.perAccount);
      expect(failures[0]!.summary).toBe(`Failed sign-in for ${user.email}`);
    });

    it(`limits an address to ${SIGN_IN_LIMITS.perAddress} failures over any accounts`, async () => {
      const address = `192.0.2.${Math.floor(Math.random() * 200)}`;
      for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++)
        expect(
          (await signInRequest(`nobody-${i}-${randomUUID()}@example.test`, "whatever-password", address)).status,
        ).toBe(401);
      const user = await newUser("viewer");
      expect((await signInRequest(user.email, TEST_PASSWORD, address)).status).toBe(429);
      expect((await signInRequest(user.email, TEST_PASSWORD, "192.0.2.250")).status).toBe(200);
    });

    it("self-service endpoints stay closed: nobody signs up or changes their own role", async () => {
      const user = await newUser("viewer");
      const cookie = await sessionCookie(user.email);
      for (const [path, body] of [
        [
          "/api/auth/sign-up/email",
          { email: "me@example.test", password: "a long enough password", name: "Me", role: "admin" },
        ],
        ["/api/auth/update-user", { role: "admin" }],
      ] as const) {
        const response = await authRoute.POST(
          new Request(`http://localhost${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", origin: "http://localhost", cookie },
            body: JSON.stringify(body),
          }),
        );
        expect(response.status, path).toBe(404);
      }
      expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).role).toBe("viewer");
    });

    it("a successful sign-in is audited and the cookie is HttpOnly, SameSite=Lax", async () => {
      const user = await newUser("editor");
      const response = await signInRequest(user.email, TEST_PASSWORD);
      const cookie = response.headers.getSetCookie().find((c) => c.includes("session_token="))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i); // plain http here; see the https case in web-security tests
      const entries = await db().auditEntry.findMany({ where: { action: "auth.sign-in", actorId: user.id } });
      expect(entries).toHaveLength(1);
    });
  });

  describe("audit trail", () => {
    it("is append-only: the database refuses UPDATE and DELETE", async () => {
      await recordAudit(db(), systemActor("tests"), { action: "test.entry", summary: "kept forever" });
      const entry = await db().auditEntry.findFirstOrThrow({
        where: { action: "test.entry" },
        orderBy: { id: "desc" },
      });
      await expect(db().auditEntry.update({ where: { id: entry.id }, data: { summary: "rewritten" } })).rejects.toThrow(
        /append-only/,
      );
      await expect(db().auditEntry.delete({ where: { id: entry.id } })).rejects.toThrow(/append-only/);
      expect((await db().auditEntry.findUniqueOrThrow({ where: { id: entry.id } })).summary).toBe("kept forever");
    });

    it("pages newest first and filters by service and actor", async () => {
      const editor = await newUser("editor");
      const slugs = [`audit-a-${randomUUID().slice(0, 6)}`, `audit-b-${randomUUID().slice(0, 6)}`];
      for (const slug of slugs)
        await createService({ db: db(), actor: editor, input: { slug, name: slug, stages: [] } });
      const admin = await newUser("admin");
      const byService = await listAudit({ db: db(), actor: admin, query: { service: slugs[0] } });
      expect(byService).toEqual([
        expect.objectContaining({
          action: "service.create",
          service: slugs[0],
          actor: { kind: "user", id: editor.id, name: editor.email, ownerId: null },
        }),
      ]);
      const byActor = await listAudit({ db: db(), actor: admin, query: { actor: editor.id } });
      expect(byActor.map((e) => e.service)).toEqual([slugs[1], slugs[0]]);
      const first = await listAudit({ db: db(), actor: admin, query: { actor: editor.id, limit: "1" } });
      const next = await listAudit({ db: db(), actor: admin, query: { actor: editor.id, before: first[0]!.id } });
      expect([...first, ...next].map((e) => e.service)).toEqual([slugs[1], slugs[0]]);

      const cookie = await sessionCookie(admin.email);
      const http = await call(auditRoute.GET as Handler, {
        path: `/api/audit?service=${slugs[1]}`,
        as: null,
        headers: { cookie },
      });
      expect(http.status).toBe(200);
      expect(http.body[0]).toMatchObject({ at: expect.any(String), action: "service.create", target: slugs[1] });
      const bad = await call(auditRoute.GET as Handler, {
        path: "/api/audit?before=yesterday",
        as: null,
        headers: { cookie },
      });
      expect(bad.status).toBe(422);
      // Tokens never read the audit trail, whatever their scopes.
      expect((await call(auditRoute.GET as Handler, { path: "/api/audit" })).status).toBe(403);
    });

    it("records role changes, and the last admin cannot be demoted", async () => {
      const admin = await newUser("admin");
      const viewer = await newUser("viewer");
      await setUserRole({ db: db(), actor: admin, id: viewer.id, input: { role: "editor" } });
      const entry = await db().auditEntry.findFirstOrThrow({ where: { action: "user.role", target: viewer.email } });
      expect(entry.summary).toBe(`Changed the role of ${viewer.email} from viewer to editor`);
      expect(entry.actorId).toBe(admin.id);

      const admins = await db().user.findMany({ where: { role: "admin" } });
      for (const other of admins.filter((a) => a.id !== admin.id))
        await setUserRole({ db: db(), actor: systemActor("tests"), id: other.id, input: { role: "viewer" } });
      const error = await rejection(setUserRole({ db: db(), actor: admin, id: admin.id, input: { role: "viewer" } }));
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: "CONFLICT",
        message: "This is the last admin: make someone else an admin first.",
      });
    });
  });
});
