import { json, queryOf, route } from "@/lib/api/handle";
import { discoverHistograms } from "@/lib/services/discovery";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

// What histograms the connected Prometheus has, for building budgets from telemetry. Viewing
// dashboards is not enough: it lists every metric name and label value Prometheus holds.
export const GET = route(async (request, _params, actor) =>
  json(await discoverHistograms({ prom: runtime().prom, actor, query: queryOf(request) })),
);
