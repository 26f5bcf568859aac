import { json, readJson, route } from "@/lib/api/handle";
import { proposeDraft } from "@/lib/services/proposal";
import { runtime } from "@/lib/services/runtime";

// Budgets proposed for a pipeline that is not saved yet (the new-service wizard). A calculation
// sent as a POST for its body: it stores nothing, so whoever may view may ask.
export const POST = route(
  async (request, _params, actor) =>
    json(await proposeDraft({ prom: runtime().prom, actor, input: await readJson(request) })),
  { isCalculation: true },
);
