import { json, queryOf, route } from "@/lib/api/handle";
import { getAlerts } from "@/lib/services/alerts";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** Pending and firing alerts of this app's rules, as Prometheus sees them now (rulesError's detail for admins). */
export const GET = route(async (request, _params, viewer) =>
  json(await getAlerts({ ...runtime(), query: queryOf(request), viewer })),
);
