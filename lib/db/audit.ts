import "server-only";
import type { Db } from "./client";
import type { Client } from "./users";

export type NewAuditEntry = {
  actorKind: string;
  actorId: string | null;
  actorName: string;
  ownerId: string | null;
  action: string;
  serviceSlug: string | null;
  target: string;
  summary: string;
  address: string | null;
};

export type AuditRow = NewAuditEntry & { id: bigint; at: Date };

/** Appends inside the caller's transaction when given one: the entry commits with its change, or neither does. */
export async function appendAuditEntry(db: Client, entry: NewAuditEntry): Promise<void> {
  await db.auditEntry.create({ data: entry });
}

/** Newest first; `actorId` matches the actor itself or, for tokens, their owner. */
export async function listAuditRows(
  db: Db,
  options: { serviceSlug?: string; actorId?: string; beforeId?: bigint; beforeAt?: Date; limit: number },
): Promise<AuditRow[]> {
  return db.auditEntry.findMany({
    where: {
      ...(options.serviceSlug && { serviceSlug: options.serviceSlug }),
      ...(options.actorId && { OR: [{ actorId: options.actorId }, { ownerId: options.actorId }] }),
      ...(options.beforeId !== undefined && { id: { lt: options.beforeId } }),
      ...(options.beforeAt && { at: { lt: options.beforeAt } }),
    },
    orderBy: { id: "desc" },
    take: options.limit,
  });
}

/** How often actions were recorded (for a target, from an address) since a time (sign-in failures). */
export async function countRecentAudit(
  db: Db,
  options: { action: string | string[]; since: Date; target?: string; address?: string },
): Promise<number> {
  return db.auditEntry.count({
    where: {
      action: typeof options.action === "string" ? options.action : { in: options.action },
      at: { gte: options.since },
      ...(options.target !== undefined && { target: options.target }),
      ...(options.address !== undefined && { address: options.address }),
    },
  });
}
