import "server-only";
import type { Db } from "./client";
import type { Client } from "./users";
import type { Prisma } from "@/lib/generated/prisma/client";
import {
  INDICATORS,
  mergeAccumulators,
  newAccumulator,
  type ExperimentDesign,
  type Indicator,
  type VariantAccumulator,
} from "@/lib/domain/experiments";
import { LatencySamples } from "@/lib/domain/stats/latency-samples";
import type { RatioAccumulator } from "@/lib/domain/stats/ratio";

export type ExperimentStatus = "running" | "stopped" | "decided";

export type ExperimentRow = ExperimentDesign & {
  id: string;
  serviceSlug: string;
  name: string;
  hypothesis: string;
  startsAt: Date | null;
  endsAt: Date | null;
  status: ExperimentStatus;
  decision: string | null;
  decisionNote: string;
  decidedBy: string | null;
  decidedAt: Date | null;
  version: number;
  createdAt: Date;
  createdBy: string;
};

export type UploadRow = { source: string; accepted: number; rejected: number; createdAt: Date; createdBy: string };

const include = { service: { select: { slug: true } } } as const;

function toRow(row: Prisma.ExperimentGetPayload<{ include: typeof include }>): ExperimentRow {
  return {
    id: row.id,
    serviceSlug: row.service.slug,
    name: row.name,
    hypothesis: row.hypothesis,
    variants: row.variants as ExperimentRow["variants"],
    indicators: row.indicators as Indicator[],
    judgedPercentile: row.judgedPercentile,
    qualityMaxDrop: row.qualityMaxDrop,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    status: row.status as ExperimentStatus,
    decision: row.decision,
    decisionNote: row.decisionNote,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt,
    version: row.version,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
  };
}

export type NewExperiment = ExperimentDesign & {
  serviceId: string;
  name: string;
  hypothesis: string;
  startsAt: Date | null;
  endsAt: Date | null;
  createdBy: string;
};

export async function insertExperiment(db: Client, data: NewExperiment): Promise<ExperimentRow> {
  return toRow(await db.experiment.create({ data, include }));
}

export async function listExperimentRows(db: Db): Promise<ExperimentRow[]> {
  return (await db.experiment.findMany({ include, orderBy: { createdAt: "desc" }, take: 200 })).map(toRow);
}

export async function findExperimentRow(db: Client, id: string): Promise<ExperimentRow | null> {
  const row = await db.experiment.findUnique({ where: { id }, include });
  return row && toRow(row);
}

/** Sets status and decision only if still at `baseVersion`; false when someone changed it in between. */
export async function updateExperimentStatusIfVersion(
  db: Client,
  id: string,
  baseVersion: number,
  data: {
    status: ExperimentStatus;
    decision: string | null;
    decisionNote: string;
    decidedBy: string | null;
    decidedAt: Date | null;
  },
): Promise<boolean> {
  const updated = await db.experiment.updateMany({
    where: { id, version: baseVersion },
    data: { ...data, version: baseVersion + 1 },
  });
  return updated.count === 1;
}

export async function listUploadRows(db: Db, experimentId: string): Promise<UploadRow[]> {
  return db.experimentUpload.findMany({
    where: { experimentId },
    orderBy: { createdAt: "desc" },
    take: 50,
    select: { source: true, accepted: true, rejected: true, createdAt: true, createdBy: true },
  });
}

type StoredVariant = {
  requests: number;
  latency: unknown;
  cost: unknown;
  qualitySum: number;
  qualityCount: number;
  qualitySumSquares: number | null;
};

function encode(acc: VariantAccumulator) {
  const latency = Object.fromEntries(
    INDICATORS.filter((i) => acc.latency[i].count > 0).map((i) => [
      i,
      Buffer.from(acc.latency[i].toBytes()).toString("base64"),
    ]),
  );
  return {
    requests: acc.requests,
    latency: latency as Prisma.InputJsonValue,
    cost: acc.cost as unknown as Prisma.InputJsonValue,
    qualitySum: acc.quality.sum,
    qualityCount: acc.quality.n,
    qualitySumSquares: acc.quality.sumSquares,
  };
}

function decode(row: StoredVariant): VariantAccumulator {
  const acc = newAccumulator();
  acc.requests = row.requests;
  for (const [indicator, base64] of Object.entries(row.latency as Record<string, string>)) {
    if (INDICATORS.includes(indicator as Indicator))
      acc.latency[indicator as Indicator] = LatencySamples.fromBytes(new Uint8Array(Buffer.from(base64, "base64")));
  }
  acc.cost = row.cost as RatioAccumulator;
  acc.quality = { n: row.qualityCount, sum: row.qualitySum, sumSquares: row.qualitySumSquares };
  return acc;
}

export async function loadVariantData(db: Db, experimentId: string): Promise<Map<string, VariantAccumulator>> {
  const rows = await db.experimentVariant.findMany({ where: { experimentId } });
  return new Map(rows.map((row) => [row.variant, decode(row)]));
}

/**
 * Merges an upload into the stored results and records who made it, in one transaction; the
 * experiment row is locked so two uploads at once add up instead of overwriting each other.
 * `alsoInTransaction` (the audit entry) commits with them.
 */
export async function mergeVariantData(
  db: Db,
  experimentId: string,
  upload: Map<string, VariantAccumulator>,
  record: { source: string; accepted: number; rejected: number; createdBy: string },
  alsoInTransaction: (tx: Prisma.TransactionClient) => Promise<void>,
): Promise<void> {
  await db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Experiment" WHERE id = ${experimentId}::uuid FOR UPDATE`;
      const existing = new Map(
        (await tx.experimentVariant.findMany({ where: { experimentId } })).map((r) => [r.variant, decode(r)]),
      );
      for (const [variant, added] of upload) {
        if (added.requests === 0) continue;
        const merged = existing.get(variant) ?? newAccumulator();
        mergeAccumulators(merged, added);
        const data = { ...encode(merged), updatedAt: new Date() };
        await tx.experimentVariant.upsert({
          where: { experimentId_variant: { experimentId, variant } },
          create: { experimentId, variant, ...data },
          update: data,
        });
      }
      await tx.experimentUpload.create({ data: { experimentId, ...record } });
      await alsoInTransaction(tx);
    },
    { timeout: 60_000 },
  );
}
