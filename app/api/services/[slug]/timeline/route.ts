import { jsonText, queryOf, route, slugParam } from "@/lib/api/handle";
import { runtime } from "@/lib/services/runtime";
import { getTimelineJson } from "@/lib/services/timeline";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  jsonText(await getTimelineJson({ ...runtime(), slug: slugParam(slug), query: queryOf(request) })),
);
