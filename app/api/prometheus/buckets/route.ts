import { json, readJson, route } from "@/lib/api/handle";
import { prometheus } from "@/lib/prometheus/instance";
import { getBucketBounds } from "@/lib/services/slos";

// The browser names a histogram (metric + label matchers), never PromQL.
export const POST = route(async (request) =>
  json(await getBucketBounds({ prom: prometheus(), input: await readJson(request) })),
);
