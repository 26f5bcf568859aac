import { randomUUID } from "node:crypto";
import * as authRoute from "@/app/api/auth/[...all]/route";
import { db } from "@/lib/db/client";
import { SCOPES, type Role } from "@/lib/domain/rights";
import { systemActor, type Actor } from "@/lib/services/actor";
import { createToken } from "@/lib/services/auth/tokens";
import { createUser } from "@/lib/services/auth/users";

export const TEST_PASSWORD = "correct horse battery staple";

/** A real user row with a password, and the actor it signs in as. */
export async function newUser(role: Role, label: string = role): Promise<Actor & { kind: "user" }> {
  const email = `${label}-${randomUUID().slice(0, 8)}@example.test`;
  const user = await createUser({
    db: db(),
    actor: systemActor("tests"),
    input: { email, name: label, role, password: TEST_PASSWORD },
  });
  return { kind: "user", id: user.id, email: user.email, name: user.name, role };
}

/** A real API token of a new user with the role, carrying the scopes (all of the role's by default). */
export async function newToken(role: Role, scopes: readonly string[] = SCOPES): Promise<string> {
  const owner = await newUser(role, `${role}-token-owner`);
  const created = await createToken({
    db: db(),
    actor: owner,
    input: { name: `tests ${randomUUID().slice(0, 4)}`, scopes, expiresInDays: 1 },
  });
  return created.token;
}

let adminToken: Promise<string> | undefined;

/** An admin's token with every scope: what route tests send unless they test rights. */
export function testAdminToken(): Promise<string> {
  adminToken ??= newToken("admin");
  return adminToken;
}

/** Signs in through better-auth's route, as a browser on the app's own page would, and returns the session cookie. */
export async function sessionCookie(email: string, password = TEST_PASSWORD): Promise<string> {
  const origin = new URL(process.env.LB_PUBLIC_URL || "http://localhost").origin;
  const response = await authRoute.POST(
    new Request(`${origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ email, password }),
    }),
  );
  const cookie = response.headers.getSetCookie().find((c) => c.includes("session_token="));
  if (response.status !== 200 || !cookie)
    throw new Error(`Sign-in failed: ${response.status} ${await response.text()}`);
  return cookie.split(";")[0]!;
}
