import { json, jsonText, queryOf, readJson, route, slugParam } from "@/lib/api/handle";
import { createSlo, getSloStatusesJson } from "@/lib/services/slos";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  jsonText(await getSloStatusesJson({ ...runtime(), slug: slugParam(slug), query: queryOf(request) })),
);

export const POST = route<{ slug: string }>(async (request, { slug }, actor) => {
  const input = await readJson(request);
  return json(await createSlo({ ...runtime(), actor, slug: slugParam(slug), input }), {
    status: 201,
  });
});
