import "server-only";
import type { Db } from "./client";
import type { Client } from "./users";

export type AnnotationRow = {
  id: string;
  serviceSlug: string;
  at: Date;
  kind: string;
  text: string;
  tags: string[];
  url: string | null;
  authorKind: string;
  authorName: string;
};

export type NewAnnotation = {
  at?: Date;
  kind: string;
  text: string;
  tags?: string[];
  url?: string | null;
  authorKind: string;
  authorId: string | null;
  authorName: string;
  dedupeKey?: string | null;
};

const columns = {
  id: true,
  at: true,
  kind: true,
  text: true,
  tags: true,
  url: true,
  authorKind: true,
  authorName: true,
  service: { select: { slug: true } },
} as const;

type Selected = Omit<AnnotationRow, "serviceSlug"> & { service: { slug: string } };
const toRow = ({ service, ...row }: Selected): AnnotationRow => ({ ...row, serviceSlug: service.slug });

/** Inserts inside the caller's transaction when given one; `null` when the service does not exist. */
export async function insertAnnotation(db: Client, slug: string, entry: NewAnnotation): Promise<AnnotationRow | null> {
  const service = await db.service.findUnique({ where: { slug }, select: { id: true } });
  if (!service) return null;
  const row = await db.annotation.create({
    data: { ...entry, at: entry.at ?? new Date(), serviceId: service.id },
    select: columns,
  });
  return toRow(row);
}

/** Events that may arrive twice (an alert re-sent): a row whose dedupeKey exists is skipped. */
export async function insertAnnotationsOnce(
  db: Client,
  rows: (NewAnnotation & { serviceId: string; dedupeKey: string })[],
): Promise<number> {
  const result = await db.annotation.createMany({
    skipDuplicates: true,
    data: rows.map((row) => ({ ...row, at: row.at ?? new Date() })),
  });
  return result.count;
}

/** Annotations of the services in [from, to], oldest first, at most `limit` (the newest kept). */
export async function listAnnotationRows(
  db: Db,
  options: { slugs: string[]; from: Date; to: Date; limit: number },
): Promise<AnnotationRow[]> {
  const rows = await db.annotation.findMany({
    where: { service: { slug: { in: options.slugs } }, at: { gte: options.from, lte: options.to } },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: options.limit,
    select: columns,
  });
  return rows.reverse().map(toRow);
}

export async function findAnnotationRow(db: Client, id: string): Promise<AnnotationRow | null> {
  const row = await db.annotation.findUnique({ where: { id }, select: columns });
  return row ? toRow(row) : null;
}

export async function deleteAnnotationRow(db: Client, id: string): Promise<boolean> {
  const result = await db.annotation.deleteMany({ where: { id } });
  return result.count === 1;
}
