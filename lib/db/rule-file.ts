import "server-only";
import type { Db } from "./client";

// The rule file Prometheus reads is shared by every instance of the app. Writes are serialised by
// a PostgreSQL advisory lock, and the newest snapshot of the database wins: an instance whose
// reads began before the last written file's did skips its write, since that file already holds
// everything it saw. The lock is held only to compare snapshots, rename a file promtool has already
// checked into place and record the outcome: never while promtool runs or Prometheus is asked
// (on the embedded database the lock's transaction holds the app's only connection).

export type RuleFileSyncRow = {
  /** When the written file's snapshot of the database was taken (the database's clock). */
  at: Date;
  ok: boolean;
  error: string | null;
  checksum: string | null;
  instance: string;
  /** Groups left out of the written file, and why; the rest was written. */
  leftOut: LeftOutRuleGroup[];
};

export type LeftOutRuleGroup = { service: string; group: string; reason: string };

function leftOutOf(value: unknown): LeftOutRuleGroup[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (g): g is LeftOutRuleGroup =>
      typeof g === "object" &&
      g !== null &&
      typeof (g as LeftOutRuleGroup).service === "string" &&
      typeof (g as LeftOutRuleGroup).group === "string" &&
      typeof (g as LeftOutRuleGroup).reason === "string",
  );
}

const ROW_ID = 1;

/** The database's clock, so instances on different machines order their snapshots alike. */
export async function databaseNow(db: Db): Promise<Date> {
  const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS now`;
  return row!.now;
}

/**
 * Runs `write` holding the rule file's lock, unless a file from a snapshot at or after
 * `snapshotAt` was written already; records the outcome. Returns whether `write` ran. `write`
 * must be quick (a rename): every other query of this instance may be waiting for it.
 */
export async function writeRuleFileOnce(
  db: Db,
  { snapshotAt, instance }: { snapshotAt: Date; instance: string },
  write: () => Promise<
    ({ ok: true; checksum: string } | { ok: false; error: string }) & { leftOut?: LeftOutRuleGroup[] }
  >,
): Promise<boolean> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('latency_budgets.rule_file'))`;
      const last = await tx.ruleFileSync.findUnique({ where: { id: ROW_ID }, select: { at: true } });
      if (last && last.at >= snapshotAt) return false;
      const outcome = await write();
      const data = {
        at: snapshotAt,
        ok: outcome.ok,
        error: outcome.ok ? null : outcome.error.slice(0, 2000),
        checksum: outcome.ok ? outcome.checksum : null,
        instance: instance.slice(0, 120),
        leftOut: (outcome.leftOut ?? []).slice(0, 200),
      };
      await tx.ruleFileSync.upsert({ where: { id: ROW_ID }, create: { id: ROW_ID, ...data }, update: data });
      return true;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

/** Records what Prometheus said to the reload that followed the write of `snapshotAt`'s file. */
export async function recordRuleFileReload(db: Db, snapshotAt: Date, error: string | null): Promise<void> {
  await db.ruleFileSync.updateMany({
    where: { id: ROW_ID, at: snapshotAt },
    data: { ok: error === null, error: error?.slice(0, 2000) ?? null },
  });
}

export async function findRuleFileSync(db: Db): Promise<RuleFileSyncRow | null> {
  const row = await db.ruleFileSync.findUnique({
    where: { id: ROW_ID },
    select: { at: true, ok: true, error: true, checksum: true, instance: true, leftOut: true },
  });
  return row && { ...row, leftOut: leftOutOf(row.leftOut) };
}
