import { json, queryOf, route } from "@/lib/api/handle";
import { listAudit } from "@/lib/services/audit";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** ?service=&actor=&before=<entry id or ISO time>&limit= → newest first (admins only). */
export const GET = route(async (request, _params, actor) =>
  json(await listAudit({ db: runtime().db, actor, query: queryOf(request) })),
);
