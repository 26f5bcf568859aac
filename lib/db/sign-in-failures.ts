import "server-only";
import type { Db } from "./client";

// Password sign-in attempts, for the limiter only: each attempt is reserved here before its
// password is checked, kept if it fails, released if it does not, and forgotten after the window.

export type FailureCounts = { forAccountFromAddress: number; fromAddress: number };

/** An attempt reserved (`id`, with the counts it makes), or refused with the counts that were full. */
export type Reservation = ({ id: bigint } | { id: null }) & FailureCounts;

/**
 * Reserves one attempt for `email` from `address` unless the failures and attempts in flight
 * already reach a limit. Atomic across connections and instances: a transaction-scoped advisory
 * lock per address orders the count and the insert, so parallel tries from one address (on any
 * instance on this database) are counted one after the other and never more than the limits
 * are let through.
 */
export async function reserveSignInAttempt(
  db: Db,
  {
    email,
    address,
    at,
    since,
    limits,
  }: {
    email: string;
    address: string;
    at: Date;
    since: Date;
    limits: { perAccountAndAddress: number; perAddress: number };
  },
): Promise<Reservation> {
  const [, counted, inserted] = await db.$transaction([
    db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('latency_budgets.sign_in'), hashtext(${address}))`,
    db.$queryRaw<{ account: bigint; address: bigint }[]>`
      SELECT count(*) FILTER (WHERE "email" = ${email}) AS account, count(*) AS address
      FROM "SignInFailure" WHERE "address" = ${address} AND "at" >= ${since}`,
    // The same condition as the count above, under the same lock: inserted only when both fit.
    db.$queryRaw<{ id: bigint }[]>`
      INSERT INTO "SignInFailure" ("at", "email", "address")
      SELECT ${at}, ${email}, ${address}
      WHERE (SELECT count(*) FROM "SignInFailure"
             WHERE "address" = ${address} AND "email" = ${email} AND "at" >= ${since}) < ${limits.perAccountAndAddress}
        AND (SELECT count(*) FROM "SignInFailure"
             WHERE "address" = ${address} AND "at" >= ${since}) < ${limits.perAddress}
      RETURNING "id"`,
  ]);
  const forAccountFromAddress = Number(counted[0]?.account ?? 0);
  const fromAddress = Number(counted[0]?.address ?? 0);
  const id = inserted[0]?.id ?? null;
  return id === null
    ? { id: null, forAccountFromAddress, fromAddress }
    : { id, forAccountFromAddress: forAccountFromAddress + 1, fromAddress: fromAddress + 1 };
}

/** Gives back an attempt that did not fail (signed in, or refused for another reason). */
export async function releaseSignInAttempt(db: Db, id: bigint): Promise<void> {
  await db.signInFailure.deleteMany({ where: { id } });
}

/**
 * After a successful sign-in: forgets that account's failures from that address, so the person
 * who just proved their password is not refused by their own earlier typos (other accounts'
 * failures from the address still count).
 */
export async function clearSignInFailures(
  db: Db,
  { email, address }: { email: string; address: string },
): Promise<void> {
  await db.signInFailure.deleteMany({ where: { email, address } });
}

/** Forgets attempts older than the window, so the table holds one window at most. */
export async function forgetSignInFailures(db: Db, before: Date): Promise<void> {
  await db.signInFailure.deleteMany({ where: { at: { lt: before } } });
}
