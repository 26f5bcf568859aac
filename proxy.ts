import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, isCrossSiteMutation, ownOriginsOf } from "@/lib/api/security";

// Runs before every page and API route: refuses mutations another site made a browser send,
// and gives each page a fresh CSP nonce (Next puts it on its own scripts).
export function proxy(request: NextRequest) {
  const ownOrigins = ownOriginsOf(process.env.LB_PUBLIC_URL || undefined, request.url, request.headers);
  if (isCrossSiteMutation(request.method, request.headers, ownOrigins))
    return NextResponse.json(
      {
        error: {
          code: "FORBIDDEN",
          message: `Refused a cross-site request: changes are accepted only from ${ownOrigins[0]} itself, or from scripts with an API token.`,
        },
      },
      { status: 403 },
    );

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = contentSecurityPolicy(nonce, { isDev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  // Pages that send someone to sign in bring them back here afterwards.
  requestHeaders.set("x-url", request.nextUrl.pathname + request.nextUrl.search);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|icon.svg).*)"],
};
