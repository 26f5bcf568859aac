import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { getBudgetProposal } from "@/lib/services/proposal";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }) =>
  json(await getBudgetProposal({ ...runtime(), slug: slugParam(slug), query: queryOf(request) })),
);
