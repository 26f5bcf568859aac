import { json, route } from "@/lib/api/handle";
import { describeActor } from "@/lib/services/auth/me";

export const dynamic = "force-dynamic";

/** Who the caller is and what they may do: answered to anyone, signed in or not. */
export const GET = route(async (request) => json(await describeActor(request.headers)), { isPublic: true });
