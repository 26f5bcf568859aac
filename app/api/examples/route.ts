import { json, route } from "@/lib/api/handle";
import { addExamples } from "@/lib/services/examples";
import { runtime } from "@/lib/services/runtime";

/** POST /api/examples: adds the demo's example services that are missing (the first-run page's button). */
export const POST = route(async (_request, _params, actor) => {
  const added = await addExamples({ db: runtime().db, actor });
  return json(added, { status: 201 });
});
