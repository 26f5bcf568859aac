import { inspect } from "node:util";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as servicesRoute from "@/app/api/services/route";
import * as setupRoute from "@/app/api/setup/route";
import * as tokensRoute from "@/app/api/tokens/route";
import { createDb } from "@/lib/db/create";
import { db } from "@/lib/db/client";
import { issueSetupCode, setUpFirstAdmin } from "@/lib/services/auth/setup";
import { newUser, sessionCookie } from "@/test/credentials";
import { freshDatabase } from "@/test/databases";
import { call, type Handler } from "@/test/http";
import { vouchedHeaders } from "@/lib/net/peer";

// Behind HTTPS the session cookie is Secure; secrets never reach the log or an error message;
// the first-run setup creates exactly one admin, once.

const PUBLIC_URL = "https://budgets.example.com";
process.env.LB_PUBLIC_URL = PUBLIC_URL;
afterAll(() => db().$disconnect());

function signIn(email: string, password: string) {
  return authRoute.POST(
    new Request(`${PUBLIC_URL}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: PUBLIC_URL, ...vouchedHeaders("203.0.113.50") },
      body: JSON.stringify({ email, password }),
    }),
  );
}

describe(`web security (${inject("databaseKind")})`, () => {
  it("behind HTTPS the session cookie is Secure, HttpOnly and SameSite=Lax", async () => {
    const user = await newUser("viewer");
    const response = await signIn(user.email, "correct horse battery staple");
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((c) => c.includes("session_token="))!;
    expect(cookie).toMatch(/^__Secure-/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
  });

  it("an API route refuses a change another site made a browser send, on its own (the proxy leaves /api alone)", async () => {
    const user = await newUser("editor");
    const cookie = await sessionCookie(user.email);
    const refused = await call(servicesRoute.POST as Handler, {
      method: "POST",
      as: null,
      headers: { cookie, origin: "https://evil.example" },
      json: { slug: "from-evil", name: "From evil" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("Refused a cross-site change from https://evil.example");
    const sameSite = await call(servicesRoute.GET as Handler, {
      as: null,
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(sameSite.status).toBe(200);
  });

  it("no password, token or session cookie reaches the log or an error message", async () => {
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
      vi
        .spyOn(console, level)
        .mockImplementation(
          (...args: unknown[]) => void logged.push(args.map((a) => inspect(a, { depth: 6 })).join(" ")),
        ),
    );
    const secrets: string[] = [];
    try {
      const user = await newUser("editor");
      const wrongPassword = "hunter2-but-longer-than-twelve";
      secrets.push(wrongPassword);
      const failed = await signIn(user.email, wrongPassword);
      const cookie = await sessionCookie(user.email);
      secrets.push(cookie.split("=")[1]!.split(".")[0]!);
      const created = await call(tokensRoute.POST as Handler, {
        method: "POST",
        as: null,
        headers: { cookie, origin: PUBLIC_URL },
        json: { name: "leak check", scopes: ["read"] },
      });
      const token = created.body.token as string;
      secrets.push(token);
      const forged = `${token.slice(0, -4)}AAAA`;
      secrets.push(forged);
      const answers = [
        await failed.text(),
        JSON.stringify((await call(servicesRoute.GET as Handler, { as: forged })).body),
        JSON.stringify((await call(servicesRoute.GET as Handler, { as: "not-a-token-at-all-secret-value" })).body),
        JSON.stringify(
          (await call(servicesRoute.POST as Handler, { method: "POST", as: token, json: { broken: true } })).body,
        ),
      ];
      secrets.push("not-a-token-at-all-secret-value");
      for (const secret of secrets) {
        for (const answer of answers) expect(answer).not.toContain(secret);
        for (const line of logged) expect(line).not.toContain(secret);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("the first-run setup needs the code from the server's log, and creates one admin, once, even when two race", async () => {
    const scratch = await freshDatabase(inject("databaseKind"), inject("databaseUrl"));
    const { applyMigrations } = await import("@/lib/db/migrate/migrations");
    await applyMigrations(scratch.url);
    const fresh = createDb(scratch.url, 2);
    try {
      const code = (await issueSetupCode(fresh))!;
      expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      const input = (who: string, withCode = code) => ({
        code: withCode,
        email: `${who}@example.test`,
        name: who,
        password: "a long enough password",
      });
      const address = "198.51.100.77";
      // Whoever arrives first without the code gets nothing.
      for (const wrong of ["", "AAAA-BBBB-CCCC"]) {
        const refused = await setUpFirstAdmin({ db: fresh, input: input("squatter", wrong), address }).catch((e) => e);
        expect(refused).toMatchObject({ code: "VALIDATION_FAILED", fields: { code: expect.any(String) } });
      }
      expect(await fresh.user.count()).toBe(0);
      // The code is read as people type it: any case, with or without dashes.
      const results = await Promise.allSettled([
        setUpFirstAdmin({ db: fresh, input: input("first", code.toLowerCase().replaceAll("-", " ")), address }),
        setUpFirstAdmin({ db: fresh, input: input("second"), address }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "CONFLICT" } });
      const users = await fresh.user.findMany();
      expect(users).toHaveLength(1);
      expect(users[0]!.role).toBe("admin");
      // The shared database has people already: its setup is closed.
      const closed = await call(setupRoute.POST as Handler, { method: "POST", as: null, json: input("late") });
      expect(closed.status).toBe(409);
      expect(await fresh.setupCode.count()).toBe(0);
      const audit = await fresh.auditEntry.findFirstOrThrow({ where: { action: "user.setup" } });
      expect(audit.address).toBe(address);
    } finally {
      await fresh.$disconnect();
      await scratch.drop();
    }
  });
});
