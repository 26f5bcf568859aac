import type { Db } from "@/lib/db/client";
import {
  findExperimentRow,
  insertExperiment,
  listExperimentRows,
  loadVariantData,
  mergeVariantData,
  type ExperimentRow,
} from "@/lib/db/experiments";
import { AppError } from "@/lib/errors";
import { createExperimentSchema, uploadQuerySchema } from "@/lib/schemas/experiment";
import { isUuid, parseInput } from "@/lib/schemas/parse";
import type { Actor } from "../actor";
import { getServiceOrThrow } from "../services";
import { analyse, type Analysis } from "./analyse";
import { ingestSamples, type RowError } from "./ingest";

export async function createExperiment({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: unknown;
}): Promise<ExperimentRow> {
  const data = parseInput(createExperimentSchema, input, "The experiment");
  const service = await getServiceOrThrow({ db, slug: data.service }).catch(() => {
    throw new AppError("VALIDATION_FAILED", "The experiment has 1 invalid field.", {
      service: `No service called “${data.service}”`,
    });
  });
  const { service: _slug, ...fields } = data;
  return insertExperiment(db, { ...fields, serviceId: service.id, createdBy: actor.name });
}

export async function listExperiments({ db }: { db: Db }): Promise<ExperimentRow[]> {
  return listExperimentRows(db);
}

export async function getExperimentOrThrow({ db, id }: { db: Db; id: string }): Promise<ExperimentRow> {
  const row = isUuid(id) ? await findExperimentRow(db, id) : null;
  if (!row) throw new AppError("NOT_FOUND", "No such experiment.");
  return row;
}

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
 * and every bad row is reported with its line number.
 */
export async function uploadSamples({
  db,
  id,
  body,
  contentType,
  query,
}: {
  db: Db;
  id: string;
  body: ReadableStream<Uint8Array> | null;
  contentType: string | null;
  query: unknown;
}): Promise<UploadResult> {
  const { onError } = parseInput(uploadQuerySchema, query, "The query");
  const experiment = await getExperimentOrThrow({ db, id });
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
  await mergeVariantData(db, experiment.id, result.variants);
  return { ...summary, stored: true };
}

export async function getAnalysis({
  db,
  id,
}: {
  db: Db;
  id: string;
}): Promise<{ experiment: ExperimentRow; analysis: Analysis }> {
  const experiment = await getExperimentOrThrow({ db, id });
  return { experiment, analysis: analyse(experiment, await loadVariantData(db, experiment.id)) };
}
