import "server-only";
import { analyse, type Analysis } from "@/lib/domain/stats/analysis";
import type { Verdict } from "@/lib/domain/stats/verdict";
import type { Db } from "@/lib/db/client";
import {
  findExperimentRow,
  insertExperiment,
  listExperimentRows,
  listUploadRows,
  loadVariantData,
  mergeVariantData,
  updateExperimentStatusIfVersion,
  type ExperimentRow,
} from "@/lib/db/experiments";
import { AppError } from "@/lib/errors";
import { createExperimentSchema, experimentStatusSchema, uploadQuerySchema } from "@/lib/schemas/experiment";
import { isUuid, parseInput } from "@/lib/schemas/parse";
import { authorOf, type Actor, type Mutation } from "../actor";
import { authorLabels } from "../authors";
import { recordAudit } from "../audit";
import { mutation } from "../mutation";
import { getServiceOrThrow } from "../services";
import { ingestSamples, type RowError } from "./ingest";

/** An experiment as the API and the browser see it (times as ISO strings). */
export type ExperimentView = Omit<ExperimentRow, "startsAt" | "endsAt" | "decidedAt" | "createdAt"> & {
  startsAt: string | null;
  endsAt: string | null;
  decidedAt: string | null;
  createdAt: string;
};

export type UploadView = { source: string; accepted: number; rejected: number; createdAt: string; createdBy: string };

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toExperimentView(row: ExperimentRow): ExperimentView {
  return {
    ...row,
    startsAt: iso(row.startsAt),
    endsAt: iso(row.endsAt),
    decidedAt: iso(row.decidedAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export const createExperiment = mutation(
  "experiment.create",
  async ({ db, actor, input }: Mutation): Promise<ExperimentView> => {
    const data = parseInput(createExperimentSchema, input, "The experiment");
    const service = await getServiceOrThrow({ db, slug: data.service }).catch(() => {
      throw new AppError("VALIDATION_FAILED", "The experiment has 1 invalid field.", {
        service: `No service called “${data.service}”`,
      });
    });
    const { service: _slug, ...fields } = data;
    return db.$transaction(async (tx) => {
      const created = toExperimentView(
        await insertExperiment(tx, { ...fields, serviceId: service.id, createdBy: authorOf(actor) }),
      );
      await recordAudit(tx, actor, {
        action: "experiment.create",
        service: data.service,
        target: created.name,
        summary: `Created experiment “${created.name}” with variants ${created.variants.map((v) => v.name).join(", ")}`,
      });
      return created;
    });
  },
);

/** Who created and decided each, as `viewer` may read it: emails when signed in, names otherwise (../authors.ts). */
async function withAuthors<V extends ExperimentView>(db: Db, viewer: Actor | undefined, views: V[]): Promise<V[]> {
  const label = await authorLabels(
    db,
    viewer,
    views.flatMap((v) => [v.createdBy, v.decidedBy ?? ""]),
  );
  return views.map((v) => ({ ...v, createdBy: label(v.createdBy), decidedBy: v.decidedBy && label(v.decidedBy) }));
}

export async function listExperiments({ db, viewer }: { db: Db; viewer?: Actor }): Promise<ExperimentView[]> {
  return withAuthors(db, viewer, (await listExperimentRows(db)).map(toExperimentView));
}

/** The experiments list, each with its analysis's verdict: what shipped, at a glance. */
export async function listExperimentsWithVerdicts({
  db,
  viewer,
}: {
  db: Db;
  viewer?: Actor;
}): Promise<(ExperimentView & { verdict: Verdict })[]> {
  const rows = await listExperimentRows(db);
  return withAuthors(
    db,
    viewer,
    await Promise.all(
      rows.map(async (row) => ({
        ...toExperimentView(row),
        verdict: analyse(row, await loadVariantData(db, row.id)).verdict,
      })),
    ),
  );
}

async function findOrThrow(db: Db, id: string): Promise<ExperimentRow> {
  const row = isUuid(id) ? await findExperimentRow(db, id) : null;
  if (!row) throw new AppError("NOT_FOUND", "No such experiment.");
  return row;
}

export async function getExperimentOrThrow({
  db,
  id,
  viewer,
}: {
  db: Db;
  id: string;
  viewer?: Actor;
}): Promise<ExperimentView> {
  return (await withAuthors(db, viewer, [toExperimentView(await findOrThrow(db, id))]))[0]!;
}

/** Running → stopped → decided (with the decision and why); the version guards concurrent changes. */
export const setExperimentStatus = mutation(
  "experiment.status",
  async ({ db, actor, id, input }: { db: Db; actor: Actor; id: string; input: unknown }): Promise<ExperimentView> => {
    const { version, status, decision, decisionNote } = parseInput(experimentStatusSchema, input, "The status change");
    const current = await findOrThrow(db, id);
    const isDecided = status === "decided";
    const saved =
      current.version === version &&
      (await db.$transaction(async (tx) => {
        const changed = await updateExperimentStatusIfVersion(tx, id, version, {
          status,
          decision,
          decisionNote: isDecided ? decisionNote : "",
          decidedBy: isDecided ? authorOf(actor) : null,
          decidedAt: isDecided ? new Date() : null,
        });
        if (changed)
          await recordAudit(tx, actor, {
            action: "experiment.status",
            service: current.serviceSlug,
            target: current.name,
            summary: isDecided
              ? `Decided experiment “${current.name}”: ${decision}${decisionNote ? ` (${decisionNote})` : ""}`
              : `Marked experiment “${current.name}” ${status}`,
          });
        return changed;
      }));
    if (!saved) {
      const latest = await findOrThrow(db, id);
      throw new AppError(
        "CONFLICT",
        `This experiment was changed since you opened it (now version ${latest.version}, ${latest.status}${latest.decidedBy ? ` by ${latest.decidedBy}` : ""}). Reload and try again.`,
        undefined,
        { current: toExperimentView(latest) },
      );
    }
    return toExperimentView(await findOrThrow(db, id));
  },
);

export type UploadResult = { accepted: number; rejected: number; errors: RowError[]; stored: boolean };

function formatOf(contentType: string | null): "csv" | "ndjson" {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "text/csv" || type === "application/csv") return "csv";
  if (type === "application/x-ndjson" || type === "application/jsonl" || type === "application/json-lines")
    return "ndjson";
  throw new AppError(
    "UNSUPPORTED_MEDIA_TYPE",
    "Send samples as CSV (Content-Type: text/csv, with a header row) or NDJSON (Content-Type: application/x-ndjson).",
  );
}

/**
 * Streams an upload into the experiment's results. With onError=reject (the default) one bad
 * row refuses the whole file and nothing is stored; with onError=skip the good rows are kept
 * and every bad row is reported with its line number. Each stored upload records who made it.
 */
export const uploadSamples = mutation(
  "experiment.upload",
  async ({
    db,
    actor,
    id,
    body,
    contentType,
    query,
  }: {
    db: Db;
    actor: Actor;
    id: string;
    body: ReadableStream<Uint8Array> | null;
    contentType: string | null;
    query: unknown;
  }): Promise<UploadResult> => {
    const { onError } = parseInput(uploadQuerySchema, query, "The query");
    const experiment = await findOrThrow(db, id);
    const format = formatOf(contentType);
    if (!body) throw new AppError("BAD_REQUEST", "The upload is empty.");
    const result = await ingestSamples(
      body,
      format,
      experiment.variants.map((v) => v.name),
    );
    if (result.accepted === 0 && result.rejected === 0)
      throw new AppError("VALIDATION_FAILED", "The file has no rows. Nothing was stored.");
    const summary = { accepted: result.accepted, rejected: result.rejected, errors: result.errors };
    if (result.rejected > 0 && onError === "reject") {
      throw new AppError(
        "VALIDATION_FAILED",
        `${result.rejected} of ${result.accepted + result.rejected} rows are invalid, so nothing was stored. Fix them, or upload with “skip bad rows”.`,
        undefined,
        { ...summary, stored: false },
      );
    }
    if (result.accepted === 0)
      throw new AppError("VALIDATION_FAILED", "No row of the file is valid. Nothing was stored.", undefined, {
        ...summary,
        stored: false,
      });
    await mergeVariantData(
      db,
      experiment.id,
      result.variants,
      { source: format, accepted: result.accepted, rejected: result.rejected, createdBy: authorOf(actor) },
      (tx) =>
        recordAudit(tx, actor, {
          action: "experiment.upload",
          service: experiment.serviceSlug,
          target: experiment.name,
          summary: `Uploaded ${result.accepted} ${format.toUpperCase()} rows into “${experiment.name}”${result.rejected ? ` (${result.rejected} skipped)` : ""}`,
        }),
    );
    return { ...summary, stored: true };
  },
);

export async function getAnalysis({
  db,
  id,
  viewer,
}: {
  db: Db;
  id: string;
  /** Who reads it: authors' emails for signed-in people, names otherwise (../authors.ts). */
  viewer?: Actor;
}): Promise<{ experiment: ExperimentView; analysis: Analysis; uploads: UploadView[] }> {
  const experiment = await findOrThrow(db, id);
  const [data, uploads] = await Promise.all([loadVariantData(db, experiment.id), listUploadRows(db, experiment.id)]);
  const [view] = await withAuthors(db, viewer, [toExperimentView(experiment)]);
  const label = await authorLabels(
    db,
    viewer,
    uploads.map((u) => u.createdBy),
  );
  return {
    experiment: view!,
    analysis: analyse(experiment, data),
    uploads: uploads.map((u) => ({ ...u, createdAt: u.createdAt.toISOString(), createdBy: label(u.createdBy) })),
  };
}
