import { errorResponse, refuseCrossSite } from "@/lib/api/handle";
import { handleAuthRequest } from "@/lib/services/auth/sign-in";

export const dynamic = "force-dynamic";

// better-auth's own routes: sign-in (email + password, single sign-on), sign-out, session.
const handler = async (request: Request) => {
  try {
    refuseCrossSite(request);
    return await handleAuthRequest(request);
  } catch (error) {
    return errorResponse(error);
  }
};

export const GET = handler;
export const POST = handler;
