import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { systemActor, type Actor } from "@/lib/services/actor";
import { createExperiment, uploadSamples } from "@/lib/services/experiments/experiments";
import { seedOptimizations } from "@/lib/services/optimizations";
import { createService } from "@/lib/services/services";
import { createSlo } from "@/lib/services/slos";
import { SEED_EXPERIMENT, seedExperimentCsv } from "./seed-experiment";
import { SEED_SERVICES } from "./seed-data";

/** Creates the seed services that do not exist yet (with the demo's catalog and experiment); returns their slugs. */
export async function seedDatabase(db: Db, actor: Actor = systemActor("seed")): Promise<string[]> {
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
  if (created.includes("chat-api")) {
    await seedOptimizations(db, actor);
    const experiment = await createExperiment({ db, actor, input: { ...SEED_EXPERIMENT, service: "chat-api" } });
    await uploadSamples({
      db,
      actor,
      id: experiment.id,
      body: new Blob([seedExperimentCsv()]).stream() as ReadableStream<Uint8Array>,
      contentType: "text/csv",
      query: {},
    });
  }
  return created;
}
