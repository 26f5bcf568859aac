import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, crossSiteRefusal } from "@/lib/api/security";
import { parseOrigins } from "@/lib/domain/origins";

// Runs before every page: refuses mutations another site made a browser send (server actions),
// and gives each page a fresh CSP nonce (Next puts it on its own scripts). API routes are left
// out: they answer JSON (no CSP to give) and refuse cross-site changes themselves (lib/api/handle.ts),
// which spares every API request, 200 a second in an incident, a pass through the proxy.
export function proxy(request: NextRequest) {
  const refusal = crossSiteRefusal(request, {
    publicUrl: process.env.LB_PUBLIC_URL || undefined,
    extraOrigins: parseOrigins(process.env.LB_TRUSTED_ORIGINS),
  });
  if (refusal) return NextResponse.json({ error: { code: "FORBIDDEN", message: refusal } }, { status: 403 });

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
  matcher: ["/((?!_next/static|_next/image|icon.svg|api/).*)"],
};
