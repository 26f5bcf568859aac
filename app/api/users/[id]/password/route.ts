import { json, readJson, route } from "@/lib/api/handle";
import { resetPassword } from "@/lib/services/auth/credentials";
import { runtime } from "@/lib/services/runtime";

// Body: { password }. Admins only; the person's sessions end.
export const POST = route<{ id: string }>(async (request, { id }, actor) =>
  json(await resetPassword({ db: runtime().db, actor, id, input: await readJson(request) })),
);
