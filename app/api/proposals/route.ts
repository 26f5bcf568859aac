import { json, readJson, route } from "@/lib/api/handle";
import { proposeDraft } from "@/lib/services/proposal";
import { runtime } from "@/lib/services/runtime";

// Budgets proposed for a pipeline that is not saved yet (the new-service wizard). A calculation
// sent as a POST for its body: it stores nothing, but reads the histograms it names, so it needs a
// signed-in person or a token with read even when anonymous viewing is on ("histogram.read").
export const POST = route(
  async (request, _params, actor) =>
    json(await proposeDraft({ prom: runtime().prom, actor, input: await readJson(request) })),
  { isCalculation: true },
);
