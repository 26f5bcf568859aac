import { json, route } from "@/lib/api/handle";
import { AppError } from "@/lib/errors";
import { importFromPrometheus } from "@/lib/services/experiments/from-prometheus";
import { currentActor } from "@/lib/services/actor";
import { runtime } from "@/lib/services/runtime";

// Body (optional JSON): { metric?, variantLabel = "variant", costMetric?, tokensMetric? }.
export const POST = route<{ id: string }>(async (request, { id }) => {
  const text = await request.text();
  let input: unknown = {};
  if (text.trim()) {
    try {
      input = JSON.parse(text);
    } catch {
      throw new AppError("BAD_REQUEST", "The body is not valid JSON (send nothing, or a JSON object).");
    }
  }
  return json(await importFromPrometheus({ ...runtime(), actor: currentActor(), id, input }));
});
