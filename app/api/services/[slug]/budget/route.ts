import { json, readJson, route, slugParam } from "@/lib/api/handle";
import { getBudget, saveBudget } from "@/lib/services/budgets";
import { runtime } from "@/lib/services/runtime";

type Params = { slug: string };

export const GET = route<Params>(async (_request, { slug }, viewer) =>
  json(await getBudget({ db: runtime().db, slug: slugParam(slug), viewer })),
);

export const PUT = route<Params>(async (request, { slug }, actor) => {
  const input = await readJson(request);
  return json(await saveBudget({ ...runtime(), actor, slug: slugParam(slug), input }));
});
