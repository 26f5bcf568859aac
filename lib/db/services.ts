import "server-only";
import type { Db } from "./client";
import type { Client } from "./users";
import type { BudgetDocument } from "@/lib/domain/budget";
import type { Prisma } from "@/lib/generated/prisma/client";

export type ServiceRow = {
  id: string;
  slug: string;
  name: string;
  description: string;
  createdAt: Date;
  budget: (BudgetDocument & { version: number; updatedAt: Date; updatedBy: string }) | null;
};

const withBudget = { budget: true } as const;

type ServiceWithBudget = Prisma.ServiceGetPayload<{ include: typeof withBudget }>;

function toServiceRow(row: ServiceWithBudget): ServiceRow {
  const { budget } = row;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    createdAt: row.createdAt,
    budget: budget && {
      version: budget.version,
      indicator: budget.indicator,
      targetMs: budget.targetMs,
      quantile: budget.quantile,
      stages: budget.stages as BudgetDocument["stages"],
      endToEndSource: (budget.endToEndSource as BudgetDocument["endToEndSource"]) ?? null,
      updatedAt: budget.updatedAt,
      updatedBy: budget.updatedBy,
    },
  };
}

export async function listServiceRows(db: Db): Promise<ServiceRow[]> {
  const rows = await db.service.findMany({ include: withBudget, orderBy: { slug: "asc" } });
  return rows.map(toServiceRow);
}

export async function findServiceRow(db: Db, slug: string): Promise<ServiceRow | null> {
  const row = await db.service.findUnique({ where: { slug }, include: withBudget });
  return row && toServiceRow(row);
}

/** Deletes a service; its budget, revisions, SLOs, experiments and notifications go with it. */
export async function deleteServiceRow(db: Client, serviceId: string): Promise<void> {
  await db.service.delete({ where: { id: serviceId } });
}
