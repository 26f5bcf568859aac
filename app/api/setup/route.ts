import { json, readJson, route } from "@/lib/api/handle";
import { setUpFirstAdmin } from "@/lib/services/auth/users";
import { runtime } from "@/lib/services/runtime";

/** First run only: { email, name, password } becomes the first admin; 409 once anyone exists. */
export const POST = route(
  async (request) => json(await setUpFirstAdmin({ db: runtime().db, input: await readJson(request) }), { status: 201 }),
  { isPublic: true },
);
