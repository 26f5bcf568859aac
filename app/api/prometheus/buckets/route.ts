import { json, readJson, route } from "@/lib/api/handle";
import { getBucketBounds } from "@/lib/services/slos";
import { runtime } from "@/lib/services/runtime";

// The browser names a histogram (metric + label matchers), never PromQL. A read sent as a POST for
// its body; any metric with any labels, so it needs a signed-in person or a token with read, even
// when anonymous viewing is on (the service checks "histogram.read").
export const POST = route(
  async (request, _params, actor) =>
    json(await getBucketBounds({ prom: runtime().prom, actor, input: await readJson(request) })),
  { isCalculation: true },
);
