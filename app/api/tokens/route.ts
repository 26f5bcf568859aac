import { json, queryOf, readJson, route } from "@/lib/api/handle";
import { createToken, listTokens } from "@/lib/services/auth/tokens";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** Your tokens; an admin's ?all=1 lists everyone's. */
export const GET = route(async (request, _params, actor) =>
  json(await listTokens({ db: runtime().db, actor, query: queryOf(request) })),
);

/** Body: { name, scopes, expiresInDays }. The answer's `token` is the only time the secret is shown. */
export const POST = route(async (request, _params, actor) =>
  json(await createToken({ db: runtime().db, actor, input: await readJson(request) }), { status: 201 }),
);
