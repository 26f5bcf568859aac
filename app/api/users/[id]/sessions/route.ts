import { json, route } from "@/lib/api/handle";
import { endSessions } from "@/lib/services/auth/credentials";
import { runtime } from "@/lib/services/runtime";

/** Signs the person out everywhere (admins only). */
export const DELETE = route<{ id: string }>(async (_request, { id }, actor) =>
  json(await endSessions({ db: runtime().db, actor, id })),
);
