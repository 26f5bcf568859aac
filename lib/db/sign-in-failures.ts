import "server-only";
import type { Db } from "./client";

// Failed password sign-ins, for the limiter only: counted over its window, then deleted.

export type FailureCounts = { forAccountFromAddress: number; fromAddress: number };

export async function countSignInFailures(
  db: Db,
  { email, address, since }: { email: string; address: string; since: Date },
): Promise<FailureCounts> {
  const [forAccountFromAddress, fromAddress] = await Promise.all([
    db.signInFailure.count({ where: { email, address, at: { gte: since } } }),
    db.signInFailure.count({ where: { address, at: { gte: since } } }),
  ]);
  return { forAccountFromAddress, fromAddress };
}

/** Records a failure and forgets those older than the window, so the table holds one window at most. */
export async function recordSignInFailure(
  db: Db,
  { email, address, at, forgetBefore }: { email: string; address: string; at: Date; forgetBefore: Date },
): Promise<void> {
  await db.signInFailure.create({ data: { email, address, at } });
  await db.signInFailure.deleteMany({ where: { at: { lt: forgetBefore } } });
}
