import { json, readJson, route } from "@/lib/api/handle";
import { setUserRole } from "@/lib/services/auth/users";
import { runtime } from "@/lib/services/runtime";

// Body: { role: viewer | editor | admin }.
export const PATCH = route<{ id: string }>(async (request, { id }, actor) =>
  json(await setUserRole({ db: runtime().db, actor, id, input: await readJson(request) })),
);
