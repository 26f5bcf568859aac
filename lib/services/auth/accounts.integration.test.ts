import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as auditRoute from "@/app/api/audit/route";
import * as meRoute from "@/app/api/me/route";
import * as servicesRoute from "@/app/api/services/route";
import * as tokenRoute from "@/app/api/tokens/[id]/route";
import * as tokensRoute from "@/app/api/tokens/route";
import * as mePasswordRoute from "@/app/api/me/password/route";
import * as userPasswordRoute from "@/app/api/users/[id]/password/route";
import * as userRoute from "@/app/api/users/[id]/route";
import * as userSessionsRoute from "@/app/api/users/[id]/sessions/route";
import * as usersRoute from "@/app/api/users/route";
import { findUserRow } from "@/lib/db/users";
import { DEACTIVATED_MESSAGE } from "./better-auth";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { newUser, sessionCookie, TEST_PASSWORD } from "@/test/credentials";
import { call, type Handler } from "@/test/http";
import { rejection } from "@/test/rejection";
import { systemActor } from "../actor";
import { listAudit, recordAudit } from "../audit";
import { createService } from "../services";
import { SIGN_IN_LIMITS } from "./sign-in";
import { vouchedHeaders } from "@/lib/net/peer";
import { ANONYMOUS } from "../actor";
import { createToken } from "./tokens";
import { resetPassword } from "./credentials";
import { updateUser } from "./users";

// Accounts end to end through the real handlers and database: API tokens, sign-in limits, the
// audit trail, roles.

// The provider decides the roles of people who sign in through it (see "people" below).
process.env.LB_OIDC_ROLE_CLAIM = "groups";
afterAll(() => db().$disconnect());

const signInRequest = (email: string, password: string, address = "203.0.113.7") =>
  authRoute.POST(
    new Request("http://localhost/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost", ...vouchedHeaders(address) },
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
      await updateUser({ db: db(), actor: systemActor("tests"), id: editor.id, input: { role: "viewer" } });
      const refused = await call(servicesRoute.POST as Handler, { method: "POST", as: token.token, json: input });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe("Editors and admins can create services; you are a viewer.");
    });
  });

  describe("sign-in", () => {
    it(`stops guesses at an account from one address after ${SIGN_IN_LIMITS.perAccountAndAddress}, while its owner still signs in from theirs`, async () => {
      const user = await newUser("viewer");
      const attacker = "198.51.100.66";
      for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress; i++) {
        const response = await signInRequest(user.email, "wrong password!!", attacker);
        expect(response.status).toBe(401);
        expect(await response.text()).not.toContain("wrong password");
      }
      // Even the right password waits now, from there: the limit is checked before the password.
      const locked = await signInRequest(user.email, TEST_PASSWORD, attacker);
      expect(locked.status).toBe(429);
      expect((await locked.json()).error.message).toContain("for this account from your address");
      // Someone else's guesses never lock the owner out.
      expect((await signInRequest(user.email, TEST_PASSWORD, "203.0.113.80")).status).toBe(200);
      // The audit trail has the first failure and the lockout, not every guess.
      const entries = await db().auditEntry.findMany({
        where: { target: user.email, action: { in: ["auth.sign-in-failed", "auth.sign-in-limited"] } },
        orderBy: { id: "asc" },
      });
      expect(entries.map((e) => [e.action, e.address])).toEqual([
        ["auth.sign-in-failed", attacker],
        ["auth.sign-in-limited", attacker],
      ]);
      expect(entries[0]!.summary).toBe(`Failed sign-in for ${user.email}`);
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

    it(`checks no more than ${SIGN_IN_LIMITS.perAccountAndAddress} of 40 guesses sent at once at one account: the rest get 429 before their password is read`, async () => {
      const user = await newUser("viewer");
      const attacker = "198.51.100.91";
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) => signInRequest(user.email, `parallel guess ${i}`, attacker)),
      );
      const statuses = replies.map((reply) => reply.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(SIGN_IN_LIMITS.perAccountAndAddress);
      expect(statuses.filter((status) => status === 429)).toHaveLength(40 - SIGN_IN_LIMITS.perAccountAndAddress);
      expect(await db().signInFailure.count({ where: { email: user.email } })).toBe(
        SIGN_IN_LIMITS.perAccountAndAddress,
      );
      // The first failure and the lockout are audited once each, as one after the other.
      const entries = await db().auditEntry.findMany({
        where: { target: user.email, action: { in: ["auth.sign-in-failed", "auth.sign-in-limited"] } },
      });
      expect(entries.map((e) => e.action).sort()).toEqual(["auth.sign-in-failed", "auth.sign-in-limited"]);
      expect((await signInRequest(user.email, TEST_PASSWORD, "203.0.113.81")).status).toBe(200);
    });

    it(`checks no more than ${SIGN_IN_LIMITS.perAddress} of 40 guesses sent at once from one address at many accounts`, async () => {
      const address = "198.51.100.92";
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          signInRequest(`spray-${i}-${randomUUID()}@example.test`, "whatever-password", address),
        ),
      );
      const statuses = replies.map((reply) => reply.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(SIGN_IN_LIMITS.perAddress);
      expect(statuses.filter((status) => status === 429)).toHaveLength(40 - SIGN_IN_LIMITS.perAddress);
    });

    it("counts IPv6 clients per /64: guesses from many addresses of one /64 share one limit", async () => {
      const user = await newUser("viewer");
      for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress; i++)
        expect((await signInRequest(user.email, "a wrong password", `2001:db8:77:1::${i + 1}`)).status).toBe(401);
      expect((await signInRequest(user.email, TEST_PASSWORD, "2001:db8:77:1:ffff::9")).status).toBe(429);
      // The next /64 is another client.
      expect((await signInRequest(user.email, TEST_PASSWORD, "2001:db8:77:2::1")).status).toBe(200);
      const failures = await db().signInFailure.findMany({ where: { email: user.email } });
      expect(new Set(failures.map((f) => f.address))).toEqual(new Set(["2001:db8:77:1::/64"]));
    });

    it("gives back the attempt of a sign-in that succeeds: signing in again and again is never limited", async () => {
      const user = await newUser("viewer");
      for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress + 2; i++)
        expect((await signInRequest(user.email, TEST_PASSWORD, "203.0.113.82")).status).toBe(200);
      expect(await db().signInFailure.count({ where: { email: user.email } })).toBe(0);
    });

    it("a successful sign-in forgets that account's earlier failures from that address: a typo later is not a lockout", async () => {
      const user = await newUser("viewer");
      const address = "203.0.113.83";
      for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress - 1; i++)
        expect((await signInRequest(user.email, "wrong password", address)).status).toBe(401);
      expect((await signInRequest(user.email, TEST_PASSWORD, address)).status).toBe(200);
      expect((await signInRequest(user.email, "one more typo", address)).status).toBe(401);
      expect((await signInRequest(user.email, TEST_PASSWORD, address)).status).toBe(200);
    });

    it("cannot be bypassed by a form-encoded body: only JSON is served, so every guess is seen", async () => {
      const user = await newUser("viewer");
      for (let i = 0; i < 30; i++) {
        const response = await authRoute.POST(
          new Request("http://localhost/api/auth/sign-in/email", {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              origin: "http://localhost",
              ...vouchedHeaders("198.51.100.30"),
            },
            body: new URLSearchParams({ email: user.email, password: i === 29 ? TEST_PASSWORD : `guess ${i}` }),
          }),
        );
        expect(response.status).toBe(415);
      }
      expect((await signInRequest(user.email, TEST_PASSWORD, "198.51.100.30")).status).toBe(200);
    });

    it("cannot be bypassed by X-Forwarded-For: an address the app's server did not vouch for is one shared 'unknown'", async () => {
      const user = await newUser("viewer");
      const forged = (i: number) =>
        authRoute.POST(
          new Request("http://localhost/api/auth/sign-in/email", {
            method: "POST",
            headers: {
              "content-type": "application/json",
              origin: "http://localhost",
              "x-forwarded-for": `10.9.${i}.1`,
              "x-lb-client-address": `10.8.${i}.1`,
              "x-lb-peer-key": "guessed",
            },
            body: JSON.stringify({ email: user.email, password: `guess number ${i}` }),
          }),
        );
      for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress; i++) expect((await forged(i)).status).toBe(401);
      expect((await forged(99)).status).toBe(429);
      const failures = await db().signInFailure.findMany({ where: { email: user.email } });
      expect(new Set(failures.map((f) => f.address))).toEqual(new Set(["unknown"]));
    });

    it(`audits at most ${SIGN_IN_LIMITS.auditPerWindow} failures a window, then says the rest are not listed`, async () => {
      // Spend most of the window's allowance as earlier failures would have.
      const since = new Date(Date.now() - SIGN_IN_LIMITS.windowMinutes * 60_000);
      const recorded = await db().auditEntry.count({
        where: { action: { in: ["auth.sign-in-failed", "auth.sign-in-limited"] }, at: { gte: since } },
      });
      for (let i = recorded; i < SIGN_IN_LIMITS.auditPerWindow - 1; i++)
        await recordAudit(db(), ANONYMOUS, { action: "auth.sign-in-failed", summary: "earlier", address: "192.0.2.1" });
      const flood = Array.from({ length: 5 }, (_, i) => `flood-${i}-${randomUUID()}@example.test`);
      for (const [i, email] of flood.entries())
        expect((await signInRequest(email, "whatever-password", `198.18.0.${i}`)).status).toBe(401);
      const audited = await db().auditEntry.findMany({ where: { target: { in: flood } } });
      expect(audited.map((e) => e.target)).toEqual([flood[0]]);
      const unlisted = await db().auditEntry.findMany({
        where: { action: "auth.sign-in-failures-unlisted", at: { gte: since } },
      });
      expect(unlisted).toHaveLength(1);
      expect(unlisted[0]!.summary).toContain(`More than ${SIGN_IN_LIMITS.auditPerWindow} failed sign-ins`);
      // The limiter still counts what the audit trail no longer lists.
      expect(await db().signInFailure.count({ where: { email: { in: flood } } })).toBe(flood.length);
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

  describe("people", () => {
    const me = (cookie: string) => call(meRoute.GET as Handler, { as: null, headers: { cookie } });
    const patch = (admin: string, id: string, json: unknown) =>
      call(userRoute.PATCH as Handler, {
        method: "PATCH",
        params: { id },
        as: null,
        headers: { cookie: admin, origin: "http://localhost" },
        json,
      });

    it("deactivation takes access away at once: sessions, tokens and sign-in; reactivation gives it back", async () => {
      const admin = await newUser("admin");
      const adminCookie = await sessionCookie(admin.email);
      const leaver = await newUser("editor", "leaver");
      const cookie = await sessionCookie(leaver.email);
      const token = await createToken({ db: db(), actor: leaver, input: { name: "ci", scopes: ["read"] } });
      expect((await me(cookie)).body.user.email).toBe(leaver.email);

      const off = await patch(adminCookie, leaver.id, { active: false });
      expect(off.status).toBe(200);
      expect(off.body).toMatchObject({ active: false, deactivatedAt: expect.any(String) });
      // The very next request: the session is gone, the token refused with the reason, sign-in refused.
      expect((await me(cookie)).body.user).toBeNull();
      const refused = await call(servicesRoute.GET as Handler, { as: token.token });
      expect(refused.status).toBe(401);
      expect(refused.body.error.message).toContain("deactivated");
      const signIn = await signInRequest(leaver.email, TEST_PASSWORD);
      expect(signIn.status).toBe(403);
      expect((await signIn.json()).message).toBe(DEACTIVATED_MESSAGE);
      // A refused sign-in of a deactivated person is not a guess: it counts toward no limit.
      expect(await db().signInFailure.count({ where: { email: leaver.email } })).toBe(0);

      const on = await patch(adminCookie, leaver.id, { active: true });
      expect(on.body.active).toBe(true);
      expect((await signInRequest(leaver.email, TEST_PASSWORD)).status).toBe(200);
      expect((await call(servicesRoute.GET as Handler, { as: token.token })).status).toBe(200);
      const actions = await db().auditEntry.findMany({
        where: { target: leaver.email, action: { in: ["user.deactivate", "user.reactivate"] } },
        orderBy: { id: "asc" },
      });
      expect(actions.map((a) => [a.action, a.actorId])).toEqual([
        ["user.deactivate", admin.id],
        ["user.reactivate", admin.id],
      ]);
      expect(actions[0]!.summary).toBe(`Deactivated ${leaver.email}: ended 1 session; their tokens stop working`);
    });

    it("nobody deactivates themselves or the last active admin", async () => {
      const admin = await newUser("admin");
      const adminCookie = await sessionCookie(admin.email);
      const self = await patch(adminCookie, admin.id, { active: false });
      expect(self).toMatchObject({
        status: 409,
        body: { error: { fields: { active: "You cannot deactivate yourself" } } },
      });
      const bad = await patch(adminCookie, admin.id, { active: "no" });
      expect(bad.status).toBe(422);
      const extra = await patch(adminCookie, admin.id, { role: "admin", email: "x@example.test" });
      expect(extra.status).toBe(422);
    });

    it("an admin's password reset ends the person's sessions; the old password stops working", async () => {
      const admin = await newUser("admin");
      const person = await newUser("viewer");
      const cookie = await sessionCookie(person.email);
      const reset = await call(userPasswordRoute.POST as Handler, {
        method: "POST",
        params: { id: person.id },
        as: null,
        headers: { cookie: await sessionCookie(admin.email), origin: "http://localhost" },
        json: { password: "reset by the admin 42" },
      });
      expect(reset.status).toBe(200);
      expect((await me(cookie)).body.user).toBeNull();
      expect((await signInRequest(person.email, TEST_PASSWORD)).status).toBe(401);
      expect((await signInRequest(person.email, "reset by the admin 42")).status).toBe(200);
      const entry = await db().auditEntry.findFirstOrThrow({
        where: { action: "user.password-reset", target: person.email },
      });
      expect(entry.summary).toBe(`Reset the password of ${person.email}; ended 1 session`);
      const tooShort = await rejection(
        resetPassword({ db: db(), actor: admin, id: person.id, input: { password: "short" } }),
      );
      expect(tooShort.fields).toEqual({ password: "At least 12 characters" });
    });

    it("everyone changes their own password with the current one; their other sessions end, this one stays", async () => {
      const person = await newUser("viewer");
      const here = await sessionCookie(person.email);
      const elsewhere = await sessionCookie(person.email);
      const change = (json: unknown) =>
        call(mePasswordRoute.POST as Handler, {
          method: "POST",
          as: null,
          headers: { cookie: here, origin: "http://localhost", ...vouchedHeaders("203.0.113.44") },
          json,
        });
      const wrong = await change({ currentPassword: "not my password", newPassword: "my new password 1" });
      expect(wrong).toMatchObject({
        status: 422,
        body: { error: { fields: { currentPassword: expect.any(String) } } },
      });
      expect(await db().signInFailure.count({ where: { email: person.email, address: "203.0.113.44" } })).toBe(1);
      const done = await change({ currentPassword: TEST_PASSWORD, newPassword: "my new password 1" });
      expect(done).toMatchObject({ status: 200, body: { sessionsEnded: 1 } });
      expect((await me(here)).body.user.email).toBe(person.email);
      expect((await me(elsewhere)).body.user).toBeNull();
      expect((await signInRequest(person.email, "my new password 1")).status).toBe(200);
      const entry = await db().auditEntry.findFirstOrThrow({
        where: { action: "user.password-change", actorId: person.id },
      });
      expect(entry.address).toBe("203.0.113.44");
      // A token never changes a password, whatever its scopes.
      const token = await createToken({ db: db(), actor: person, input: { name: "t", scopes: ["read"] } });
      const byToken = await call(mePasswordRoute.POST as Handler, {
        method: "POST",
        as: token.token,
        json: { currentPassword: "my new password 1", newPassword: "another password 2" },
      });
      expect(byToken.status).toBe(403);
    });

    it("an admin signs a person out everywhere; signing out oneself is audited too", async () => {
      const admin = await newUser("admin");
      const person = await newUser("editor");
      const cookies = [await sessionCookie(person.email), await sessionCookie(person.email)];
      const ended = await call(userSessionsRoute.DELETE as Handler, {
        method: "DELETE",
        params: { id: person.id },
        as: null,
        headers: { cookie: await sessionCookie(admin.email), origin: "http://localhost" },
      });
      expect(ended.body).toEqual({ sessionsEnded: 2 });
      for (const cookie of cookies) expect((await me(cookie)).body.user).toBeNull();

      const cookie = await sessionCookie(person.email);
      const out = await authRoute.POST(
        new Request("http://localhost/api/auth/sign-out", {
          method: "POST",
          headers: { cookie, origin: "http://localhost", ...vouchedHeaders("203.0.113.45") },
        }),
      );
      expect(out.status).toBe(200);
      const entry = await db().auditEntry.findFirstOrThrow({ where: { action: "auth.sign-out", actorId: person.id } });
      expect(entry.address).toBe("203.0.113.45");
    });

    it("the Users list says who is active, how each signs in, when they last did and who decides their role", async () => {
      const admin = await newUser("admin");
      const sso = await newUser("viewer", "sso-person");
      await db().account.create({
        data: {
          id: randomUUID(),
          accountId: "sub-1",
          providerId: "oidc",
          userId: sso.id,
          createdAt: new Date(),
          updatedAt: new Date(),
        },
      });
      await sessionCookie(admin.email);
      const list = await call(usersRoute.GET as Handler, {
        as: null,
        headers: { cookie: await sessionCookie(admin.email) },
      });
      const byEmail = new Map(list.body.map((u: { email: string }) => [u.email, u]));
      expect(byEmail.get(admin.email)).toMatchObject({
        active: true,
        methods: ["password"],
        lastSignInAt: expect.any(String),
        roleSource: "admin",
      });
      expect(byEmail.get(sso.email)).toMatchObject({
        methods: ["oidc", "password"],
        roleSource: "single sign-on",
        lastSignInAt: null,
      });
      // The provider decides that role at every sign-in: a change here would be undone, so it is refused.
      const demote = await rejection(updateUser({ db: db(), actor: admin, id: sso.id, input: { role: "editor" } }));
      expect(demote).toMatchObject({ code: "CONFLICT", fields: { role: "Set by single sign-on" } });
      await updateUser({ db: db(), actor: admin, id: sso.id, input: { active: false } });
      expect((await findUserRow(db(), sso.id))!.deactivatedAt).not.toBeNull();
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
      await updateUser({ db: db(), actor: admin, id: viewer.id, input: { role: "editor" } });
      const entry = await db().auditEntry.findFirstOrThrow({ where: { action: "user.role", target: viewer.email } });
      expect(entry.summary).toBe(`Changed the role of ${viewer.email} from viewer to editor`);
      expect(entry.actorId).toBe(admin.id);

      const admins = await db().user.findMany({ where: { role: "admin" } });
      for (const other of admins.filter((a) => a.id !== admin.id))
        await updateUser({ db: db(), actor: systemActor("tests"), id: other.id, input: { role: "viewer" } });
      const error = await rejection(updateUser({ db: db(), actor: admin, id: admin.id, input: { role: "viewer" } }));
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: "CONFLICT",
        message: "This is the last active admin: make someone else an admin before you demote this one.",
      });
    });
  });
});
