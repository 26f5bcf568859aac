import { json, queryOf, route } from "@/lib/api/handle";
import { getAlerts } from "@/lib/services/alerts";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** Pending and firing alerts of this app's rules, as Prometheus sees them now. */
export const GET = route(async (request) => json(await getAlerts({ ...runtime(), query: queryOf(request) })));
