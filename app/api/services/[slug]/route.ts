import { route, slugParam } from "@/lib/api/handle";
import { deleteService } from "@/lib/services/services";
import { runtime } from "@/lib/services/runtime";

/** Deletes the service and everything stored for it (admins only). */
export const DELETE = route<{ slug: string }>(async (_request, { slug }, actor) => {
  await deleteService({ db: runtime().db, actor, slug: slugParam(slug) });
  return new Response(null, { status: 204 });
});
