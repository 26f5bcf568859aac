import "server-only";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { seedDatabase } from "@/prisma/seed";
import { SEED_SERVICES } from "@/prisma/seed-data";
import type { Actor } from "./actor";
import { mutation } from "./mutation";

// The first-run page's offer: the demo's three services (budgets, SLOs, the optimization catalog
// and the prefix-caching experiment), added for the person who asks. `npm start` never adds them.

export const EXAMPLE_SLUGS = SEED_SERVICES.map(({ service }) => service.slug!);

/**
 * Adds the example services that are missing, each through its own checked mutation, so the audit
 * trail names who added them. When all of them exist already it refuses, rather than answer
 * "done" for nothing.
 */
export const addExamples = mutation(
  "examples.add",
  async ({ db, actor }: { db: Db; actor: Actor }): Promise<{ created: string[] }> => {
    const created = await seedDatabase(db, actor);
    if (created.length === 0)
      throw new AppError(
        "CONFLICT",
        `The examples are here already (${EXAMPLE_SLUGS.join(", ")}): open them from the status page, or delete one to add it again.`,
      );
    return { created };
  },
);
