import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { listAnnotations } from "@/lib/services/annotations";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

export const GET = route<{ slug: string }>(async (request, { slug }, viewer) =>
  json(await listAnnotations({ db: runtime().db, slug: slugParam(slug), query: queryOf(request), viewer })),
);
