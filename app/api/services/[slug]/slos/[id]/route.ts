import { json, readJson, route, slugParam } from "@/lib/api/handle";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/schemas/parse";
import { deleteSlo, updateSlo } from "@/lib/services/slos";
import { runtime } from "@/lib/services/runtime";

type Params = { slug: string; id: string };

function idParam(id: string): string {
  if (!isUuid(id)) throw new AppError("NOT_FOUND", "No such SLO.");
  return id;
}

export const PUT = route<Params>(async (request, params, actor) => {
  const input = await readJson(request);
  return json(
    await updateSlo({
      ...runtime(),
      actor,
      slug: slugParam(params.slug),
      id: idParam(params.id),
      input,
    }),
  );
});

export const DELETE = route<Params>(async (_request, params, actor) => {
  await deleteSlo({ db: runtime().db, actor, slug: slugParam(params.slug), id: idParam(params.id) });
  return new Response(null, { status: 204 });
});
