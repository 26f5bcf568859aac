import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Client } from "@/lib/db/users";
import { appendAuditEntry, listAuditRows, type AuditRow } from "@/lib/db/audit";
import { parseInput } from "@/lib/schemas/parse";
import { storable } from "@/lib/schemas/text";
import { actorColumns, type Actor } from "./actor";
import { annotateEvent } from "./annotation-events";
import { guardedRead } from "./mutation";

export type AuditEntryView = {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; name: string; ownerId: string | null };
  action: string;
  service: string | null;
  target: string;
  summary: string;
  /** Where the request came from, when the entry records one (sign-ins, sign-outs, password changes). */
  address: string | null;
};

export type AuditRecord = {
  action: string;
  service?: string | null;
  target?: string;
  summary: string;
  address?: string | null;
};

const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/**
 * Appends one entry to the audit trail. Every mutation calls it with its own transaction, so the
 * entry is stored exactly when the change is; changes on-call should see on a timeline (budget
 * saves, SLO changes, experiment decisions) are annotated in the same transaction.
 */
export async function recordAudit(db: Client, actor: Actor, what: AuditRecord): Promise<void> {
  await appendAuditEntry(db, {
    ...actorColumns(actor),
    action: what.action,
    serviceSlug: what.service ?? null,
    target: clip(what.target ?? "", 254),
    summary: clip(what.summary, 500),
    address: what.address ?? null,
  });
  await annotateEvent(db, actor, what);
}

const PAGE_SIZE = 50;

const querySchema = z.object({
  service: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, "service is a service's slug")
    .optional(),
  actor: storable(z.string().max(64, "actor is at most 64 characters"), "actor").optional(),
  /** An entry's id (the next page after it) or an ISO time. */
  before: z
    .string()
    .refine(
      (value) => /^[0-9]{1,19}$/.test(value) || !Number.isNaN(Date.parse(value)),
      "before is an entry id or an ISO time",
    )
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(PAGE_SIZE),
});

function toView(row: AuditRow): AuditEntryView {
  return {
    id: row.id.toString(),
    at: row.at.toISOString(),
    actor: { kind: row.actorKind, id: row.actorId, name: row.actorName, ownerId: row.ownerId },
    action: row.action,
    service: row.serviceSlug,
    target: row.target,
    summary: row.summary,
    address: row.address,
  };
}

/** A page of the audit trail, newest first: admins only. */
export const listAudit = guardedRead(
  "audit.read",
  async ({ db, query = {} }: { db: Db; actor: Actor; query?: unknown }): Promise<AuditEntryView[]> => {
    const { service, actor: actorId, before, limit } = parseInput(querySchema, query);
    const isId = before !== undefined && /^[0-9]+$/.test(before);
    const rows = await listAuditRows(db, {
      serviceSlug: service,
      actorId,
      beforeId: isId ? BigInt(before) : undefined,
      beforeAt: before !== undefined && !isId ? new Date(before) : undefined,
      limit,
    });
    return rows.map(toView);
  },
);
