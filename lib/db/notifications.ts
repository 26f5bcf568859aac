import "server-only";
import type { Db } from "./client";
import type { Client } from "./users";
import type { Prisma } from "@/lib/generated/prisma/client";

export type NotificationRow = {
  id: string;
  receivedAt: Date;
  service: string | null;
  status: "firing" | "resolved";
  alertname: string;
  severity: string;
  fingerprint: string;
  startsAt: Date;
  endsAt: Date | null;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  receiver: string;
};

export type NewNotification = Omit<NotificationRow, "id" | "receivedAt" | "service"> & { serviceId: string | null };

/** Stores each alert state once: a re-sent (fingerprint, status, startsAt) is skipped. */
export async function insertNotifications(db: Client, rows: NewNotification[]): Promise<number> {
  const result = await db.alertNotification.createMany({
    skipDuplicates: true,
    data: rows.map((row) => ({
      ...row,
      labels: row.labels as Prisma.InputJsonValue,
      annotations: row.annotations as Prisma.InputJsonValue,
    })),
  });
  return result.count;
}

export async function listNotificationRows(
  db: Db,
  options: { serviceId?: string; limit: number; before?: Date },
): Promise<NotificationRow[]> {
  const rows = await db.alertNotification.findMany({
    where: {
      ...(options.serviceId && { serviceId: options.serviceId }),
      ...(options.before && { receivedAt: { lt: options.before } }),
    },
    include: { service: { select: { slug: true } } },
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    take: options.limit,
  });
  return rows.map((row) => ({
    id: row.id,
    receivedAt: row.receivedAt,
    service: row.service?.slug ?? null,
    status: row.status === "resolved" ? "resolved" : "firing",
    alertname: row.alertname,
    severity: row.severity,
    fingerprint: row.fingerprint,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    labels: row.labels as Record<string, string>,
    annotations: row.annotations as Record<string, string>,
    receiver: row.receiver,
  }));
}
