import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { db } from "@/lib/db/client";
import { listRevisions } from "@/lib/services/budgets";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  json(await listRevisions({ db: db(), slug: slugParam(slug), query: queryOf(request) })),
);
