import { json, queryOf, queryValues, route, slugParam } from "@/lib/api/handle";
import { runtime } from "@/lib/services/runtime";
import { getWhatIf } from "@/lib/services/whatif";

export const dynamic = "force-dynamic";

// `change` may repeat: ?change=RAG retrieval:-50&change=Network:×0.8
export const GET = route<{ slug: string }>(async (request, { slug }) =>
  json(
    await getWhatIf({
      ...runtime(),
      slug: slugParam(slug),
      query: { ...queryOf(request), change: queryValues(request, "change") },
    }),
  ),
);
