import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { listRevisions } from "@/lib/services/budgets";
import { runtime } from "@/lib/services/runtime";

export const GET = route<{ slug: string }>(async (request, { slug }, viewer) =>
  json(await listRevisions({ db: runtime().db, slug: slugParam(slug), query: queryOf(request), viewer })),
);
