import { json, readJson, route } from "@/lib/api/handle";
import { createOptimization, listOptimizations } from "@/lib/services/optimizations";
import { runtime } from "@/lib/services/runtime";

export const GET = route(async (_request, _params, viewer) =>
  json(await listOptimizations({ db: runtime().db, viewer })),
);

export const POST = route(async (request, _params, actor) =>
  json(await createOptimization({ db: runtime().db, actor, input: await readJson(request) }), {
    status: 201,
  }),
);
