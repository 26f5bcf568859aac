import { errorResponse } from "@/lib/api/handle";
import { handleAuthRequest } from "@/lib/services/auth/sign-in";

export const dynamic = "force-dynamic";

// better-auth's own routes: sign-in (email + password, single sign-on), sign-out, session.
const handler = (request: Request) => handleAuthRequest(request).catch(errorResponse);

export const GET = handler;
export const POST = handler;
