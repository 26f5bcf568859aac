import { json, readJson, route, slugParam } from "@/lib/api/handle";
import { db } from "@/lib/db/client";
import { currentActor } from "@/lib/services/actor";
import { getBudget, saveBudget } from "@/lib/services/budgets";

type Params = { slug: string };

export const GET = route<Params>(async (_request, { slug }) =>
  json(await getBudget({ db: db(), slug: slugParam(slug) })),
);

export const PUT = route<Params>(async (request, { slug }) => {
  const input = await readJson(request);
  return json(await saveBudget({ db: db(), actor: currentActor(), slug: slugParam(slug), input }));
});
