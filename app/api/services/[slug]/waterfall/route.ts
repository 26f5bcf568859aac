import { jsonText, queryOf, route, slugParam } from "@/lib/api/handle";
import { runtime } from "@/lib/services/runtime";
import { getWaterfallJson } from "@/lib/services/waterfall";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  jsonText(await getWaterfallJson({ ...runtime(), slug: slugParam(slug), query: queryOf(request) })),
);
