import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/budgets";
import { AppError } from "@/lib/errors";
import { nameSchema } from "@/lib/schemas/budget";
import { parseInput } from "@/lib/schemas/parse";

// The catalog of optimizations for the cost-versus-latency view.

export type OptimizationView = {
  id: string;
  name: string;
  component: string;
  savingMs: number;
  costPct: number;
  note: string;
  source: string;
};

export const optimizationInputSchema = z.object({
  name: nameSchema("Name", 120),
  component: nameSchema("Component", 80),
  savingMs: z.number({ error: "Enter the latency saving in ms" }).finite().min(-60_000).max(60_000),
  costPct: z
    .number({ error: "Enter the cost change in %" })
    .finite()
    .min(-100, "Cost cannot fall by more than 100 %")
    .max(10_000),
  note: z.string().trim().max(500).default(""),
  source: z.string().trim().max(120).default("manual"),
});

/** The "Cost vs. Latency Trade-offs" table of the chat-api latency document. */
export const SEED_OPTIMIZATIONS: z.input<typeof optimizationInputSchema>[] = [
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

export async function listOptimizations({ db }: { db: Db }): Promise<OptimizationView[]> {
  return db.optimization.findMany({
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, component: true, savingMs: true, costPct: true, note: true, source: true },
  });
}

export async function createOptimization({ db, input }: { db: Db; input: unknown }): Promise<OptimizationView> {
  const data = parseInput(optimizationInputSchema, input, "The optimization");
  try {
    return await db.optimization.create({
      data,
      select: { id: true, name: true, component: true, savingMs: true, costPct: true, note: true, source: true },
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("CONFLICT", `An optimization called “${data.name}” exists already.`, {
        name: "This name is taken",
      });
    throw error;
  }
}

export async function seedOptimizations(db: Db): Promise<void> {
  for (const input of SEED_OPTIMIZATIONS) await createOptimization({ db, input }).catch(() => undefined);
}
