import { jsonText, queryOf, route, slugParam } from "@/lib/api/handle";
import { getKpisJson } from "@/lib/services/kpis";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  jsonText(await getKpisJson({ ...runtime(), slug: slugParam(slug), query: queryOf(request) })),
);
