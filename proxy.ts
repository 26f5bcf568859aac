import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, isCrossSiteMutation } from "@/lib/api/security";
import { parseOrigins, trustedOriginsOf, untrustedOriginMessage } from "@/lib/domain/origins";

// Runs before every page and API route: refuses mutations another site made a browser send,
// and gives each page a fresh CSP nonce (Next puts it on its own scripts).
export function proxy(request: NextRequest) {
  const config = {
    publicUrl: process.env.LB_PUBLIC_URL || undefined,
    extraOrigins: parseOrigins(process.env.LB_TRUSTED_ORIGINS),
  };
  const ownOrigins = trustedOriginsOf(config, request.url, request.headers);
  if (isCrossSiteMutation(request.method, request.headers, ownOrigins)) {
    const origin = request.headers.get("origin");
    return NextResponse.json(
      {
        error: {
          code: "FORBIDDEN",
          message:
            origin && origin !== "null"
              ? `Refused a cross-site change from ${origin}: ${untrustedOriginMessage(origin, ownOrigins, config) ?? ""} Scripts send an API token and no Origin.`
              : "Refused a cross-site request: changes are accepted only from the app's own pages, or from scripts with an API token.",
        },
      },
      { status: 403 },
    );
  }

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
