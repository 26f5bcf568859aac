import { json, readJson, route } from "@/lib/api/handle";
import { db } from "@/lib/db/client";
import { currentActor } from "@/lib/services/actor";
import { createService, listServices } from "@/lib/services/services";

export const GET = route(async () => json(await listServices({ db: db() })));

export const POST = route(async (request) => {
  const input = await readJson(request);
  const service = await createService({ db: db(), actor: currentActor(), input });
  return json(service, { status: 201, headers: { location: `/api/services/${service.slug}/budget` } });
});
