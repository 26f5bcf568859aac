import { json, readJson, route } from "@/lib/api/handle";
import { currentActor } from "@/lib/services/actor";
import { createExperiment, listExperiments } from "@/lib/services/experiments/experiments";
import { runtime } from "@/lib/services/runtime";

export const GET = route(async () => json(await listExperiments({ db: runtime().db })));

export const POST = route(async (request) =>
  json(await createExperiment({ db: runtime().db, actor: currentActor(), input: await readJson(request) }), {
    status: 201,
  }),
);
