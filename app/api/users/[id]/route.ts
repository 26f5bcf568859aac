import { json, readJson, route } from "@/lib/api/handle";
import { updateUser } from "@/lib/services/auth/users";
import { runtime } from "@/lib/services/runtime";

// Body: { role?: viewer | editor | admin, active?: boolean }.
export const PATCH = route<{ id: string }>(async (request, { id }, actor) =>
  json(await updateUser({ db: runtime().db, actor, id, input: await readJson(request) })),
);
