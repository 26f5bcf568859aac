import { json, readJson, route } from "@/lib/api/handle";
import { createUser, listUsers } from "@/lib/services/auth/users";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

export const GET = route(async (_request, _params, actor) => json(await listUsers({ db: runtime().db, actor })));

export const POST = route(async (request, _params, actor) =>
  json(await createUser({ db: runtime().db, actor, input: await readJson(request) }), { status: 201 }),
);
