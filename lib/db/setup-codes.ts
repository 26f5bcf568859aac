import "server-only";
import type { Client } from "./users";

// First-run setup codes: only their SHA-256 is stored, each valid until it expires or the first
// admin exists (then all are deleted).

export async function insertSetupCode(db: Client, hash: string, expiresAt: Date): Promise<void> {
  await db.setupCode.create({ data: { hash, expiresAt } });
}

export async function isSetupCodeValid(db: Client, hash: string, now: Date): Promise<boolean> {
  return (await db.setupCode.count({ where: { hash, expiresAt: { gt: now } } })) > 0;
}

export async function deleteSetupCodes(db: Client): Promise<void> {
  await db.setupCode.deleteMany({});
}
