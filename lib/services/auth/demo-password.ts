import "server-only";
import { verifyPassword } from "better-auth/crypto";
import type { Db } from "@/lib/db/client";
import { findPasswordHash, findUserIdByEmail, findUserRow } from "@/lib/db/users";

// The demo publishes its admin's sign-in (the README, the demo's own output). A database the demo
// made still has that admin; the launcher asks this before it lets such a database be reached from
// other machines.

/** The demo's admin unless LB_DEMO_ADMIN_EMAIL / LB_DEMO_ADMIN_PASSWORD say otherwise. */
export const DEMO_ADMIN = { email: "admin@example.com", password: "latency-budgets-demo" } as const;

/**
 * The active accounts among `emails` that still sign in with the demo's published password,
 * checked by the auth library's own password verification.
 */
export async function accountsWithPublishedPassword(
  db: Db,
  emails: readonly (string | undefined)[],
): Promise<string[]> {
  const unique = [...new Set(emails.filter((e): e is string => !!e).map((e) => e.trim().toLowerCase()))];
  const found: string[] = [];
  for (const email of unique) {
    const id = await findUserIdByEmail(db, email);
    const user = id && (await findUserRow(db, id));
    if (!user || user.deactivatedAt) continue;
    const hash = await findPasswordHash(db, user.id);
    if (hash && (await verifyPassword({ hash, password: DEMO_ADMIN.password }))) found.push(email);
  }
  return found;
}
