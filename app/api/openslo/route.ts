import { json, readYaml, route } from "@/lib/api/handle";
import { importOpenSlo } from "@/lib/services/openslo";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** Imports OpenSLO v1 Service and SLO documents (one or many, as YAML): all of them or none. */
export const POST = route(async (request, _params, actor) =>
  json(await importOpenSlo({ ...runtime(), actor, text: await readYaml(request) }), {
    status: 201,
  }),
);
