import { json, route } from "@/lib/api/handle";
import { deleteAnnotation } from "@/lib/services/annotations";
import { runtime } from "@/lib/services/runtime";

/** Removes a note or deploy posted by mistake; the app's own events stay. */
export const DELETE = route<{ id: string }>(async (_request, { id }, actor) =>
  json(await deleteAnnotation({ db: runtime().db, actor, id })),
);
