import { json, readJson, route } from "@/lib/api/handle";
import { createService, listServices } from "@/lib/services/services";
import { runtime } from "@/lib/services/runtime";

export const GET = route(async () => json(await listServices({ db: runtime().db })));

export const POST = route(async (request, _params, actor) => {
  const input = await readJson(request);
  const service = await createService({ ...runtime(), actor, input });
  return json(service, { status: 201, headers: { location: `/api/services/${service.slug}/budget` } });
});
