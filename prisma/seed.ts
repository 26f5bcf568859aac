import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Actor } from "@/lib/services/actor";
import { createService } from "@/lib/services/services";
import { createSlo } from "@/lib/services/slos";
import { seedOptimizations } from "@/lib/services/optimizations";
import { SEED_SERVICES } from "./seed-data";

/** Creates the seed services that do not exist yet; returns the slugs it created. */
export async function seedDatabase(db: Db, actor: Actor = { name: "seed" }): Promise<string[]> {
  const created: string[] = [];
  for (const { service, stages, slos = [] } of SEED_SERVICES) {
    try {
      await createService({ db, actor, input: { ...service, stages } });
      for (const slo of slos) await createSlo({ db, actor, slug: service.slug!, input: slo });
      created.push(service.slug!);
    } catch (error) {
      if (!(error instanceof AppError && error.code === "CONFLICT")) throw error;
    }
  }
  if (created.length) await seedOptimizations(db);
  return created;
}
