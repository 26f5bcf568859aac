import { json, readJson, route } from "@/lib/api/handle";
import { createAnnotation } from "@/lib/services/annotations";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** A deploy step or a person marks a moment: `{ service, text, at?, kind?, tags?, url? }`. */
export const POST = route(async (request, _params, actor) => {
  const input = await readJson(request);
  return json(await createAnnotation({ db: runtime().db, actor, input }), { status: 201 });
});
