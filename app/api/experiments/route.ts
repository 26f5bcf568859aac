import { json, readJson, route } from "@/lib/api/handle";
import { db } from "@/lib/db/client";
import { currentActor } from "@/lib/services/actor";
import { createExperiment, listExperiments } from "@/lib/services/experiments/experiments";

export const GET = route(async () => json(await listExperiments({ db: db() })));

export const POST = route(async (request) =>
  json(await createExperiment({ db: db(), actor: currentActor(), input: await readJson(request) }), { status: 201 }),
);
