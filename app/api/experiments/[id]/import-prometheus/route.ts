import { json, readOptionalJson, route } from "@/lib/api/handle";
import { importFromPrometheus } from "@/lib/services/experiments/from-prometheus";
import { runtime } from "@/lib/services/runtime";

// Body (optional JSON): { metric?, variantLabel = "variant", costMetric?, tokensMetric? }.
export const POST = route<{ id: string }>(async (request, { id }, actor) => {
  const input = await readOptionalJson(request);
  return json(await importFromPrometheus({ ...runtime(), actor, id, input }));
});
