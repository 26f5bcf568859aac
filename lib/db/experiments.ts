import type { Db } from "./client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { LatencySamples } from "@/lib/domain/stats/latency-samples";
import { mergeRatios, type RatioAccumulator } from "@/lib/domain/stats/ratio";
import { INDICATORS, type Indicator } from "@/lib/schemas/experiment";
import { newAccumulator, type VariantAccumulator } from "@/lib/services/experiments/ingest";

export type ExperimentRow = {
  id: string;
  serviceSlug: string;
  name: string;
  hypothesis: string;
  variants: { name: string; weight: number }[];
  indicators: Indicator[];
  judgedPercentile: number;
  qualityMaxDrop: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
  status: string;
  createdAt: Date;
  createdBy: string;
};

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
    status: row.status,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
  };
}

export async function insertExperiment(
  db: Db,
  data: Omit<ExperimentRow, "id" | "serviceSlug" | "createdAt" | "status"> & { serviceId: string },
): Promise<ExperimentRow> {
  const row = await db.experiment.create({
    data: { ...data, variants: data.variants, indicators: data.indicators },
    include,
  });
  return toRow(row);
}

export async function listExperimentRows(db: Db): Promise<ExperimentRow[]> {
  return (await db.experiment.findMany({ include, orderBy: { createdAt: "desc" }, take: 200 })).map(toRow);
}

export async function findExperimentRow(db: Db, id: string): Promise<ExperimentRow | null> {
  const row = await db.experiment.findUnique({ where: { id }, include });
  return row && toRow(row);
}

type StoredVariant = { latency: Record<string, string>; cost: RatioAccumulator };

function encode(acc: VariantAccumulator): { latency: Prisma.InputJsonValue; cost: Prisma.InputJsonValue } {
  const latency = Object.fromEntries(
    INDICATORS.filter((i) => acc.latency[i].count > 0).map((i) => [
      i,
      Buffer.from(acc.latency[i].toBytes()).toString("base64"),
    ]),
  );
  return { latency, cost: acc.cost as unknown as Prisma.InputJsonValue };
}

function decode(row: {
  requests: number;
  latency: unknown;
  cost: unknown;
  qualitySum: number;
  qualityCount: number;
}): VariantAccumulator {
  const stored = { latency: row.latency, cost: row.cost } as StoredVariant;
  const acc = newAccumulator();
  acc.requests = row.requests;
  for (const [indicator, base64] of Object.entries(stored.latency)) {
    if (INDICATORS.includes(indicator as Indicator))
      acc.latency[indicator as Indicator] = LatencySamples.fromBytes(new Uint8Array(Buffer.from(base64, "base64")));
  }
  acc.cost = stored.cost;
  acc.qualitySum = row.qualitySum;
  acc.qualityCount = row.qualityCount;
  return acc;
}

export async function loadVariantData(db: Db, experimentId: string): Promise<Map<string, VariantAccumulator>> {
  const rows = await db.experimentVariant.findMany({ where: { experimentId } });
  return new Map(rows.map((row) => [row.variant, decode(row)]));
}

/**
 * Merges an upload into the stored results in one transaction; the experiment row is locked so
 * two uploads at once add up instead of overwriting each other.
 */
export async function mergeVariantData(
  db: Db,
  experimentId: string,
  upload: Map<string, VariantAccumulator>,
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
        merged.requests += added.requests;
        for (const i of INDICATORS) merged.latency[i].merge(added.latency[i]);
        merged.cost = mergeRatios(merged.cost, added.cost);
        merged.qualitySum += added.qualitySum;
        merged.qualityCount += added.qualityCount;
        const data = {
          requests: merged.requests,
          ...encode(merged),
          qualitySum: merged.qualitySum,
          qualityCount: merged.qualityCount,
          updatedAt: new Date(),
        };
        await tx.experimentVariant.upsert({
          where: { experimentId_variant: { experimentId, variant } },
          create: { experimentId, variant, ...data },
          update: data,
        });
      }
    },
    { timeout: 60_000 },
  );
}
