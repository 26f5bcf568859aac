import "server-only";
import type { Db } from "@/lib/db/client";
import {
  deleteAnnotationRow,
  findAnnotationRow,
  insertAnnotation,
  listAnnotationRows,
  type AnnotationRow,
} from "@/lib/db/annotations";
import { rangeSeconds, type TimelineRange } from "@/lib/domain/timeline";
import { AppError } from "@/lib/errors";
import {
  annotationInputSchema,
  annotationQuerySchema,
  POSTED_KINDS,
  type AnnotationKind,
} from "@/lib/schemas/annotation";
import { parseInput } from "@/lib/schemas/parse";
import type { Actor, Mutation } from "./actor";
import { authorColumns } from "./annotation-events";
import { authorLabels } from "./authors";
import { recordAudit } from "./audit";
import { mutation } from "./mutation";

// Annotations: what changed, on the timelines on-call reads. CI posts deploys with a token
// (scope write:annotations), on-call types notes, and the app records its own changes.

export type AnnotationView = {
  id: string;
  service: string;
  at: number;
  kind: AnnotationKind;
  text: string;
  tags: string[];
  url: string | null;
  author: string;
  authorKind: string;
};

/** The most annotations one timeline shows: the newest are kept. */
export const MAX_ANNOTATIONS = 500;

export function toAnnotationView(row: AnnotationRow): AnnotationView {
  return {
    id: row.id,
    service: row.serviceSlug,
    at: row.at.getTime() / 1000,
    kind: row.kind as AnnotationKind,
    text: row.text,
    tags: row.tags,
    url: row.url,
    author: row.authorName,
    authorKind: row.authorKind,
  };
}

export const createAnnotation = mutation(
  "annotation.create",
  async ({ db, actor, input }: Mutation): Promise<AnnotationView> => {
    const fields = parseInput(annotationInputSchema, input, "The annotation");
    // A token is most often a deploy step; a person is most often writing a note.
    const kind = fields.kind ?? (actor.kind === "token" ? "deploy" : "note");
    const row = await db.$transaction(async (tx) => {
      const inserted = await insertAnnotation(tx, fields.service, {
        at: fields.at === undefined ? undefined : new Date(fields.at * 1000),
        kind,
        text: fields.text,
        tags: fields.tags,
        url: fields.url ?? null,
        ...authorColumns(actor),
      });
      if (!inserted) return null;
      await recordAudit(tx, actor, {
        action: "annotation.create",
        service: fields.service,
        target: inserted.id,
        summary: `Annotated ${fields.service} (${kind}): ${fields.text}`,
      });
      return inserted;
    });
    if (!row) throw new AppError("NOT_FOUND", `No service “${fields.service}”.`, { service: "No such service" });
    return toAnnotationView(row);
  },
);

/** Removes a note or deploy posted by mistake; the app's own events are history and stay. */
export const deleteAnnotation = mutation(
  "annotation.delete",
  async ({ db, actor, id }: { db: Db; actor: Actor; id: string }): Promise<{ deleted: true }> => {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new AppError("NOT_FOUND", "No such annotation.");
    await db.$transaction(async (tx) => {
      const row = await findAnnotationRow(tx, id);
      if (!row) throw new AppError("NOT_FOUND", "No such annotation.");
      if (!(POSTED_KINDS as readonly string[]).includes(row.kind))
        throw new AppError(
          "VALIDATION_FAILED",
          `This annotation records the app's own ${row.kind} change and stays in the history; only notes and deploys can be deleted.`,
        );
      await deleteAnnotationRow(tx, id);
      await recordAudit(tx, actor, {
        action: "annotation.delete",
        service: row.serviceSlug,
        target: id,
        summary: `Deleted the ${row.kind} annotation “${row.text}”`,
      });
    });
    return { deleted: true };
  },
);

/**
 * The annotations of a time span, oldest first, their authors as `viewer` may read them (names
 * only without a viewer: the live views' cached answers serve everyone; see ./authors.ts).
 */
export async function annotationsBetween(
  db: Db,
  slugs: string[],
  from: number,
  to: number,
  viewer?: Actor,
): Promise<AnnotationView[]> {
  const rows = await listAnnotationRows(db, {
    slugs,
    from: new Date(from * 1000),
    to: new Date(to * 1000),
    limit: MAX_ANNOTATIONS,
  });
  const label = await authorLabels(
    db,
    viewer,
    rows.map((r) => r.authorName),
  );
  return rows.map((row) => ({ ...toAnnotationView(row), author: label(row.authorName) }));
}

export async function listAnnotations({
  db,
  slug,
  query,
  now = Date.now() / 1000,
  viewer,
}: {
  db: Db;
  slug: string;
  query: unknown;
  now?: number;
  /** Who reads them: authors' emails for signed-in people, names for anonymous viewers. */
  viewer?: Actor;
}): Promise<AnnotationView[]> {
  const { range, end = now } = parseInput(annotationQuerySchema, query, "The query");
  if (!(await db.service.findUnique({ where: { slug }, select: { id: true } })))
    throw new AppError("NOT_FOUND", `No service “${slug}”.`);
  return annotationsBetween(db, [slug], end - rangeSeconds(range as TimelineRange), end, viewer);
}
