import "server-only";
import type { Db } from "@/lib/db/client";
import { optimizationInputSchema, type OptimizationInput } from "@/lib/schemas/optimization";
import { parseInput } from "@/lib/schemas/parse";
import { authorOf, type Actor, type Mutation } from "./actor";
import { authorLabels } from "./authors";
import { recordAudit } from "./audit";
import { mutation } from "./mutation";
import { writeUnique } from "./unique";

// The catalog of optimizations for the cost-versus-latency view.

export type OptimizationView = {
  id: string;
  name: string;
  component: string;
  savingMs: number;
  costPct: number;
  note: string;
  source: string;
  createdBy: string;
  createdAt: string;
};

/** The "Cost vs. Latency Trade-offs" table of the chat-api latency document. */
export const SEED_OPTIMIZATIONS: OptimizationInput[] = [
  { name: "Edge deployment", component: "Network", savingMs: 70, costPct: 30, note: "More PoPs", source: "seed" },
  {
    name: "Prefix caching",
    component: "LLM first decode",
    savingMs: 25,
    costPct: -15,
    note: "Fewer tokens",
    source: "seed",
  },
  {
    name: "Speculative decoding",
    component: "LLM first decode",
    savingMs: 40,
    costPct: 20,
    note: "Perceived latency; more compute",
    source: "seed",
  },
  {
    name: "Smaller models for simple queries",
    component: "LLM first decode",
    savingMs: 50,
    costPct: -90,
    note: "Much cheaper",
    source: "seed",
  },
  {
    name: "INT8 quantization",
    component: "LLM first decode",
    savingMs: 20,
    costPct: -30,
    note: "Smaller GPUs",
    source: "seed",
  },
  {
    name: "Auto-scaling (more pods)",
    component: "Request queueing",
    savingMs: 100,
    costPct: 50,
    note: "Idle capacity",
    source: "seed",
  },
];

const select = {
  id: true,
  name: true,
  component: true,
  savingMs: true,
  costPct: true,
  note: true,
  source: true,
  createdBy: true,
  createdAt: true,
} as const;

type Row = { createdAt: Date } & Omit<OptimizationView, "createdAt">;
const toView = (row: Row): OptimizationView => ({ ...row, createdAt: row.createdAt.toISOString() });

/** The catalog; who added each, as `viewer` may read it: emails when signed in, names otherwise (./authors.ts). */
export async function listOptimizations({ db, viewer }: { db: Db; viewer?: Actor }): Promise<OptimizationView[]> {
  const rows = (await db.optimization.findMany({ orderBy: { createdAt: "asc" }, select })).map(toView);
  const label = await authorLabels(
    db,
    viewer,
    rows.map((r) => r.createdBy),
  );
  return rows.map((row) => ({ ...row, createdBy: label(row.createdBy) }));
}

export const createOptimization = mutation(
  "optimization.create",
  async ({ db, actor, input }: Mutation): Promise<OptimizationView> => {
    const data = parseInput(optimizationInputSchema, input, "The optimization");
    const row = await writeUnique(
      () =>
        db.$transaction(async (tx) => {
          const created = await tx.optimization.create({ data: { ...data, createdBy: authorOf(actor) }, select });
          await recordAudit(tx, actor, {
            action: "optimization.create",
            target: created.name,
            summary: `Added “${created.name}” to the catalog: ${created.savingMs} ms off ${created.component}, ${created.costPct}% cost`,
          });
          return created;
        }),
      { message: `An optimization called “${data.name}” exists already.`, field: "name", taken: "This name is taken" },
    );
    return toView(row);
  },
);

/** The demo's catalog: entries already there are left alone. */
export async function seedOptimizations(db: Db, actor: Actor): Promise<void> {
  for (const input of SEED_OPTIMIZATIONS) await createOptimization({ db, actor, input }).catch(() => undefined);
}
