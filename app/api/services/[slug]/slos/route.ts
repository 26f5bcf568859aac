import { json, queryOf, readJson, route, slugParam } from "@/lib/api/handle";
import { db } from "@/lib/db/client";
import { prometheus } from "@/lib/prometheus/instance";
import { currentActor } from "@/lib/services/actor";
import { createSlo, getSloStatuses } from "@/lib/services/slos";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  json(await getSloStatuses({ db: db(), prom: prometheus(), slug: slugParam(slug), query: queryOf(request) })),
);

export const POST = route<{ slug: string }>(async (request, { slug }) => {
  const input = await readJson(request);
  return json(await createSlo({ db: db(), actor: currentActor(), slug: slugParam(slug), input }), { status: 201 });
});
