import { json, readJson, route } from "@/lib/api/handle";
import { calculatePlan } from "@/lib/services/capacity";

// Little's law sizing: a calculation, so anyone who may view may post it.
export const POST = route(
  async (request, _params, actor) => json(await calculatePlan({ actor, input: await readJson(request) })),
  { isCalculation: true },
);
