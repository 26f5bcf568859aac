import "server-only";
import type { Db } from "./client";
import type { BudgetChange } from "@/lib/domain/budget-diff";
import type { BudgetDocument } from "@/lib/domain/budget";
import { Prisma } from "@/lib/generated/prisma/client";

export type Tx = Prisma.TransactionClient;

export type RevisionRow = {
  version: number;
  author: string;
  createdAt: Date;
  message: string;
  restoredFrom: number | null;
  snapshot: BudgetDocument;
  changes: BudgetChange[];
};

function toJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}

export async function insertServiceWithBudget(
  tx: Tx,
  input: {
    slug: string;
    name: string;
    description: string;
    author: string;
    document: BudgetDocument;
    changes: BudgetChange[];
  },
): Promise<void> {
  const { document, author } = input;
  const service = await tx.service.create({
    data: { slug: input.slug, name: input.name, description: input.description, createdBy: author },
  });
  const now = new Date();
  await tx.budget.create({
    data: {
      serviceId: service.id,
      version: 1,
      indicator: document.indicator,
      targetMs: document.targetMs,
      quantile: document.quantile,
      stages: toJson(document.stages),
      endToEndSource: document.endToEndSource ? toJson(document.endToEndSource) : Prisma.DbNull,
      updatedAt: now,
      updatedBy: author,
    },
  });
  await tx.budgetRevision.create({
    data: {
      serviceId: service.id,
      version: 1,
      author,
      createdAt: now,
      snapshot: toJson(document),
      changes: toJson(input.changes),
    },
  });
}

/**
 * Writes a new budget version only if the stored one is still `baseVersion`. Returns false when
 * someone saved in between; the row lock taken by UPDATE makes this safe under concurrency.
 */
export async function updateBudgetIfVersion(
  tx: Tx,
  input: {
    serviceId: string;
    baseVersion: number;
    document: BudgetDocument;
    author: string;
    message: string;
    restoredFrom: number | null;
    changes: BudgetChange[];
  },
): Promise<boolean> {
  const { document, author } = input;
  const now = new Date();
  const version = input.baseVersion + 1;
  const updated = await tx.budget.updateMany({
    where: { serviceId: input.serviceId, version: input.baseVersion },
    data: {
      version,
      indicator: document.indicator,
      targetMs: document.targetMs,
      quantile: document.quantile,
      stages: toJson(document.stages),
      endToEndSource: document.endToEndSource ? toJson(document.endToEndSource) : Prisma.DbNull,
      updatedAt: now,
      updatedBy: author,
    },
  });
  if (updated.count !== 1) return false;
  await tx.budgetRevision.create({
    data: {
      serviceId: input.serviceId,
      version,
      author,
      createdAt: now,
      message: input.message,
      restoredFrom: input.restoredFrom,
      snapshot: toJson(document),
      changes: toJson(input.changes),
    },
  });
  return true;
}

function toRevisionRow(row: Prisma.BudgetRevisionGetPayload<object>): RevisionRow {
  return {
    version: row.version,
    author: row.author,
    createdAt: row.createdAt,
    message: row.message,
    restoredFrom: row.restoredFrom,
    snapshot: row.snapshot as BudgetDocument,
    changes: row.changes as BudgetChange[],
  };
}

export async function listRevisionRows(
  db: Db,
  serviceId: string,
  options: { limit: number; beforeVersion?: number },
): Promise<RevisionRow[]> {
  const rows = await db.budgetRevision.findMany({
    where: { serviceId, ...(options.beforeVersion ? { version: { lt: options.beforeVersion } } : {}) },
    orderBy: { version: "desc" },
    take: options.limit,
  });
  return rows.map(toRevisionRow);
}

export async function findRevisionRow(db: Db, serviceId: string, version: number): Promise<RevisionRow | null> {
  const row = await db.budgetRevision.findUnique({ where: { serviceId_version: { serviceId, version } } });
  return row && toRevisionRow(row);
}
