import "server-only";
import { budgetFit, formatTarget, percentileKeyOf, type BudgetDocument } from "@/lib/domain/budget";
import { diffBudgets } from "@/lib/domain/budget-diff";
import type { Db } from "@/lib/db/client";
import { insertServiceWithBudget } from "@/lib/db/budgets";
import { deleteServiceRow, findServiceRow, listServiceRows, type ServiceRow } from "@/lib/db/services";
import { AppError } from "@/lib/errors";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { withDocumentKinds } from "@/lib/prometheus/kinds";
import { createServiceSchema } from "@/lib/schemas/service";
import { parseInput } from "@/lib/schemas/parse";
import { authorOf, type Actor, type Mutation } from "./actor";
import { recordAudit } from "./audit";
import { forgetCachedBudget } from "./budgets";
import { forgetCachedSlos } from "./slo-definitions";
import { mutation } from "./mutation";
import { rulesChanged } from "./rules";
import { writeUnique } from "./unique";

export type ServiceSummary = {
  slug: string;
  name: string;
  description: string;
  createdAt: string;
  target: string;
  targetMs: number;
  quantile: number;
  version: number;
  stageCount: number;
  componentCount: number;
  stackedMs: number;
  marginMs: number;
  isOverTarget: boolean;
};

export function summarize(row: ServiceRow): ServiceSummary {
  const budget = row.budget!;
  const key = percentileKeyOf(budget.quantile) ?? "p95";
  const fit = budgetFit(budget).byPercentile[key];
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    target: formatTarget(budget),
    targetMs: budget.targetMs,
    quantile: budget.quantile,
    version: budget.version,
    stageCount: budget.stages.length,
    componentCount: budget.stages.reduce((n, s) => n + s.components.length, 0),
    stackedMs: fit.stackedMs,
    marginMs: fit.marginMs,
    isOverTarget: fit.isOverTarget,
  };
}

export async function listServices({ db }: { db: Db }): Promise<ServiceSummary[]> {
  const rows = await listServiceRows(db);
  return rows.filter((row) => row.budget).map(summarize);
}

/** A service as pages show it (name, target, figures): no authors. */
export async function getServiceSummary({ db, slug }: { db: Db; slug: string }): Promise<ServiceSummary> {
  return summarize(await getServiceOrThrow({ db, slug }));
}

/** The service's row, authors as stored: for lib/services only (pages read getServiceSummary). */
export async function getServiceOrThrow({
  db,
  slug,
}: {
  db: Db;
  slug: string;
}): Promise<ServiceRow & { budget: NonNullable<ServiceRow["budget"]> }> {
  const row = await findServiceRow(db, slug);
  if (!row || !row.budget) throw new AppError("NOT_FOUND", `No service called “${slug}”.`);
  return row as ServiceRow & { budget: NonNullable<ServiceRow["budget"]> };
}

export const createService = mutation(
  "service.create",
  async ({ db, prom, actor, input }: Mutation & { prom?: CoalescingClient | null }): Promise<ServiceSummary> => {
    const data = parseInput(createServiceSchema, input, "The service");
    // Sources without their kind get the one Prometheus has, as a budget save does (./budgets.ts).
    const document: BudgetDocument = await withDocumentKinds(
      prom ?? null,
      {
        indicator: data.indicator,
        targetMs: data.targetMs,
        quantile: data.quantile,
        stages: data.stages,
        endToEndSource: data.endToEndSource,
      },
      { unit: true },
    );
    await writeUnique(
      () =>
        db.$transaction(async (tx) => {
          await insertServiceWithBudget(tx, {
            slug: data.slug,
            name: data.name,
            description: data.description,
            author: authorOf(actor),
            document,
            changes: diffBudgets(null, document),
          });
          await recordAudit(tx, actor, {
            action: "service.create",
            service: data.slug,
            target: data.slug,
            summary: `Created service “${data.name}” with a ${data.targetMs} ms target`,
          });
        }),
      { message: `A service with the slug “${data.slug}” already exists.`, field: "slug", taken: "This slug is taken" },
    );
    rulesChanged(db);
    return summarize((await findServiceRow(db, data.slug))!);
  },
);

/** Deletes a service with its budget, revisions, SLOs, experiments and notifications: admins only. */
export const deleteService = mutation(
  "service.delete",
  async ({ db, actor, slug }: { db: Db; actor: Actor; slug: string }) => {
    const service = await getServiceOrThrow({ db, slug });
    await db.$transaction(async (tx) => {
      await deleteServiceRow(tx, service.id);
      await recordAudit(tx, actor, {
        action: "service.delete",
        service: slug,
        target: slug,
        summary: `Deleted service “${service.name}” and everything stored for it`,
      });
    });
    forgetCachedBudget(slug);
    forgetCachedSlos();
    rulesChanged(db);
  },
);
