import { json, readJson, route } from "@/lib/api/handle";
import { getBucketBounds } from "@/lib/services/slos";
import { runtime } from "@/lib/services/runtime";

// The browser names a histogram (metric + label matchers), never PromQL. A read sent as a POST for
// its body: whoever may view may ask (a token needs read; Alertmanager's token may not).
export const POST = route(
  async (request) => json(await getBucketBounds({ prom: runtime().prom, input: await readJson(request) })),
  { isCalculation: true },
);
