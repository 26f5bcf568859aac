import "server-only";
import type { Db } from "./client";
import type { MetricSource } from "@/lib/domain/budget";
import type { SloSpec } from "@/lib/domain/slo";
import type { Prisma } from "@/lib/generated/prisma/client";

export type SloRow = SloSpec & { id: string; version: number; updatedAt: Date; updatedBy: string };

/** The client or an open transaction: SLO writes can join a larger all-or-nothing change. */
type Client = Db | Prisma.TransactionClient;

export type SloFields = Omit<SloRow, "id" | "version" | "updatedAt" | "updatedBy">;

function toRow(row: Prisma.SloGetPayload<object>): SloRow {
  return {
    id: row.id,
    name: row.name,
    indicator: row.indicator,
    source: row.source as MetricSource,
    thresholdMs: row.thresholdMs,
    objective: row.objective,
    windowDays: row.windowDays,
    windowKind: row.windowKind === "calendar" ? "calendar" : "rolling",
    calendarUnit: row.calendarUnit === "week" || row.calendarUnit === "month" ? row.calendarUnit : null,
    timeZone: row.timeZone,
    budgetingMethod: row.budgetingMethod === "timeslices" ? "timeslices" : "occurrences",
    timesliceMinutes: row.timesliceMinutes,
    timesliceTarget: row.timesliceTarget,
    thresholdMode: row.thresholdMode === "interpolate" ? "interpolate" : "snap",
    version: row.version,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

export async function listSloRows(db: Client, serviceId: string): Promise<SloRow[]> {
  return (await db.slo.findMany({ where: { serviceId }, orderBy: { name: "asc" } })).map(toRow);
}

/** Every service's SLOs in one query, by service id, each service's by name. */
export async function listAllSloRows(db: Client): Promise<Map<string, SloRow[]>> {
  const byService = new Map<string, SloRow[]>();
  for (const row of await db.slo.findMany({ orderBy: [{ serviceId: "asc" }, { name: "asc" }] })) {
    const list = byService.get(row.serviceId) ?? [];
    list.push(toRow(row));
    byService.set(row.serviceId, list);
  }
  return byService;
}

export async function findSloRow(db: Client, serviceId: string, id: string): Promise<SloRow | null> {
  const row = await db.slo.findFirst({ where: { serviceId, id } });
  return row && toRow(row);
}

export async function insertSlo(db: Client, serviceId: string, fields: SloFields, author: string): Promise<SloRow> {
  const row = await db.slo.create({
    data: {
      serviceId,
      ...fields,
      source: fields.source as Prisma.InputJsonValue,
      updatedAt: new Date(),
      updatedBy: author,
    },
  });
  return toRow(row);
}

/** Updates only if still at `baseVersion`; false when someone saved in between. */
export async function updateSloIfVersion(
  db: Client,
  serviceId: string,
  id: string,
  baseVersion: number,
  fields: SloFields,
  author: string,
): Promise<boolean> {
  const updated = await db.slo.updateMany({
    where: { serviceId, id, version: baseVersion },
    data: {
      ...fields,
      source: fields.source as Prisma.InputJsonValue,
      version: baseVersion + 1,
      updatedAt: new Date(),
      updatedBy: author,
    },
  });
  return updated.count === 1;
}

export async function deleteSloRow(db: Client, serviceId: string, id: string): Promise<boolean> {
  return (await db.slo.deleteMany({ where: { serviceId, id } })).count === 1;
}
