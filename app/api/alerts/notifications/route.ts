import { json, queryOf, route } from "@/lib/api/handle";
import { listNotifications } from "@/lib/services/alerts";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** Notifications received from Alertmanager, newest first. */
export const GET = route(async (request) =>
  json(await listNotifications({ db: runtime().db, query: queryOf(request) })),
);
