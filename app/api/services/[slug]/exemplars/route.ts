import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { getExemplars } from "@/lib/services/exemplars";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  json(await getExemplars({ ...runtime(), slug: slugParam(slug), query: queryOf(request) })),
);
