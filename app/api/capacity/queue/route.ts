import { json, readJson, route } from "@/lib/api/handle";
import { calculateQueue } from "@/lib/services/capacity";

// M/M/c (Erlang C) waits: a calculation, so anyone who may view may post it.
export const POST = route(
  async (request, _params, actor) => json(await calculateQueue({ actor, input: await readJson(request) })),
  { isCalculation: true },
);
