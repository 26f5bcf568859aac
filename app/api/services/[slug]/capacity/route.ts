import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { getLiveCapacity } from "@/lib/services/capacity";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  json(await getLiveCapacity({ ...runtime(), slug: slugParam(slug), query: queryOf(request) })),
);
