import { json, readJson, route, slugParam } from "@/lib/api/handle";
import { AppError } from "@/lib/errors";
import { restoreRevision } from "@/lib/services/budgets";
import { runtime } from "@/lib/services/runtime";

export const POST = route<{ slug: string; version: string }>(async (request, params, actor) => {
  const revision = Number(params.version);
  if (!Number.isSafeInteger(revision) || revision < 1) throw new AppError("NOT_FOUND", "No such revision.");
  const input = await readJson(request);
  return json(await restoreRevision({ db: runtime().db, actor, slug: slugParam(params.slug), revision, input }));
});
