import { json, readJson, route } from "@/lib/api/handle";
import { receiveAlertmanagerWebhook } from "@/lib/services/alerts";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** Alertmanager's webhook receiver (payload version 4), authenticated by a bearer token. */
export const POST = route(async (request, _params, actor) => {
  // The body is read only once the token has been checked.
  const result = await receiveAlertmanagerWebhook({ db: runtime().db, actor, input: () => readJson(request) });
  return json(result, { status: 201 });
});
