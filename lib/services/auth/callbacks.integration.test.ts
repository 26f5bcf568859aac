import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import * as authRoute from "@/app/api/auth/[...all]/route";
import { db } from "@/lib/db/client";
import { vouchedHeaders } from "@/lib/net/peer";
import { newUser, TEST_PASSWORD } from "@/test/credentials";

// Where a sign-in may send the browser afterwards: a path on this site or one of the app's own
// origins, never another site, also without LB_PUBLIC_URL (the demo, a first try), where the app
// follows the address it was opened at.

delete process.env.LB_PUBLIC_URL;
process.env.LB_TRUSTED_ORIGINS = "https://lb.vpn.example";
afterAll(() => db().$disconnect());

function signIn(
  at: string,
  body: Record<string, unknown>,
  { origin = at, path = "/api/auth/sign-in/email" }: { origin?: string | null; path?: string } = {},
) {
  return authRoute.POST(
    new Request(`${at}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(origin && { origin }),
        ...vouchedHeaders(`203.0.113.${Math.floor(Math.random() * 200)}`),
      },
      body: JSON.stringify(body),
    }),
  );
}

describe(`sign-in callbacks without LB_PUBLIC_URL (${inject("databaseKind")})`, () => {
  it.each([
    ["another site", "https://evil.example/x"],
    ["another site over http", "http://evil.example/x"],
    ["a scheme-relative URL", "//evil.example/x"],
    ["a backslash path", "/\\evil.example/x"],
    ["another port of this address", "http://localhost:4444/x"],
    ["a javascript: URL", "javascript:alert(1)"],
  ])("refuses a callback to %s, and checks no password", async (_, callbackURL) => {
    const user = await newUser("viewer");
    const response = await signIn("http://localhost:3000", { email: user.email, password: TEST_PASSWORD, callbackURL });
    expect(response.status).toBe(403);
    const text = await response.text();
    expect(text).not.toContain("redirect");
    expect(JSON.parse(text).error.message).toContain("callback");
    // Refused before the password was checked: nobody was signed in.
    expect(response.headers.getSetCookie().some((cookie) => cookie.includes("session_token="))).toBe(false);
  });

  it("refuses another site as errorCallbackURL or newUserCallbackURL, and for single sign-on", async () => {
    const user = await newUser("viewer");
    for (const field of ["errorCallbackURL", "newUserCallbackURL"])
      expect(
        (
          await signIn("http://localhost:3000", {
            email: user.email,
            password: TEST_PASSWORD,
            [field]: "https://evil.example/x",
          })
        ).status,
      ).toBe(403);
    const social = await signIn(
      "http://localhost:3000",
      { provider: "oidc", callbackURL: "https://evil.example/x" },
      { path: "/api/auth/sign-in/social" },
    );
    expect(social.status).toBe(403);
  });

  it("a script sending no Origin to a hostname gets no callback to it: only localhost and IP addresses are the app's own without LB_PUBLIC_URL", async () => {
    const user = await newUser("viewer");
    const response = await signIn(
      "http://lb.rebound.example",
      { email: user.email, password: TEST_PASSWORD, callbackURL: "http://lb.rebound.example/x" },
      { origin: null },
    );
    expect(response.status).toBe(403);
  });

  it.each([
    ["a path on this site", "http://localhost:3000", "/services/chat-api?window=1h"],
    ["this address", "http://localhost:3000", "http://localhost:3000/services"],
    ["an IP address it was opened at", "http://192.0.2.10:3000", "http://192.0.2.10:3000/services"],
    ["a trusted origin (LB_TRUSTED_ORIGINS)", "http://localhost:3000", "https://lb.vpn.example/services"],
  ])("signs in with a callback to %s", async (_, at, callbackURL) => {
    const user = await newUser("viewer", `callback-${randomUUID()}`);
    const response = await signIn(at, { email: user.email, password: TEST_PASSWORD, callbackURL });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ redirect: true, url: callbackURL });
  });
});
