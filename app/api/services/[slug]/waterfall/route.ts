import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { db } from "@/lib/db/client";
import { prometheus } from "@/lib/prometheus/instance";
import { getWaterfall } from "@/lib/services/waterfall";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  json(await getWaterfall({ db: db(), prom: prometheus(), slug: slugParam(slug), query: queryOf(request) })),
);
