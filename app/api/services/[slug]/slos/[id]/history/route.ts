import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { runtime } from "@/lib/services/runtime";
import { getSloHistory } from "@/lib/services/slo-history";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string; id: string }>(async (request, { slug, id }) =>
  json(await getSloHistory({ ...runtime(), slug: slugParam(slug), id, query: queryOf(request) })),
);
