import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { getWaterfall } from "@/lib/services/waterfall";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  json(await getWaterfall({ ...runtime(), slug: slugParam(slug), query: queryOf(request) })),
);
