import { json, readJson, route } from "@/lib/api/handle";
import { setExperimentStatus } from "@/lib/services/experiments/experiments";
import { runtime } from "@/lib/services/runtime";

// Body: { version, status: running | stopped | decided, decision?: ship | do-not-ship | iterate, decisionNote? }.
export const PUT = route<{ id: string }>(async (request, { id }, actor) => {
  const input = await readJson(request);
  return json(await setExperimentStatus({ db: runtime().db, actor, id, input }));
});
