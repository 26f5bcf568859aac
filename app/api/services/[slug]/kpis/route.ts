import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { getKpis } from "@/lib/services/kpis";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  json(await getKpis({ ...runtime(), slug: slugParam(slug), query: queryOf(request) })),
);
