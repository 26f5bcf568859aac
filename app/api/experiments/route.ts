import { json, readJson, route } from "@/lib/api/handle";
import { createExperiment, listExperiments } from "@/lib/services/experiments/experiments";
import { runtime } from "@/lib/services/runtime";

export const GET = route(async (_request, _params, viewer) =>
  json(await listExperiments({ db: runtime().db, viewer })),
);

export const POST = route(async (request, _params, actor) =>
  json(await createExperiment({ db: runtime().db, actor, input: await readJson(request) }), {
    status: 201,
  }),
);
