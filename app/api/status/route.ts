import { jsonText, route } from "@/lib/api/handle";
import { runtime } from "@/lib/services/runtime";
import { getStatusBoardJson } from "@/lib/services/status";

export const dynamic = "force-dynamic";

/** The status board: every service's live state, worst first, in one request. */
export const GET = route(async () => jsonText(await getStatusBoardJson(runtime())));
