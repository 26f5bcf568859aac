// Web security that applies to every response: which mutations come from another site, and the
// Content-Security-Policy. Pure functions, used by proxy.ts and tested on their own.

import { trustedOriginsOf, untrustedOriginMessage, type OriginConfig } from "@/lib/domain/origins";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request another site made a browser send: its Origin is not the app's own
 * (including the opaque "null" of sandboxed frames and data: URLs), or, without an Origin, the
 * browser marks it cross-site. Scripts and CI send neither header and are judged by their token.
 */
export function isCrossSiteMutation(method: string, headers: Headers, ownOrigins: readonly string[]): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const origin = headers.get("origin");
  if (origin !== null) return !ownOrigins.includes(origin);
  const site = headers.get("sec-fetch-site");
  return site === "cross-site" || site === "same-site";
}

/**
 * Scripts only from the app, each page's own with its nonce ('strict-dynamic' lets them load
 * their chunks); never eval. Inline styles stay allowed: charts position with style attributes.
 */
export function contentSecurityPolicy(nonce: string, { isDev = false } = {}): string {
  return [
    "default-src 'self'",
    // React's development build evaluates source maps; production never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${isDev ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Why a request is refused as a cross-site change, or null when it is not one. */
export function crossSiteRefusal(
  request: { method: string; url: string; headers: Headers },
  config: OriginConfig,
): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const ownOrigins = trustedOriginsOf(config, request.url, request.headers);
  if (!isCrossSiteMutation(request.method, request.headers, ownOrigins)) return null;
  const origin = request.headers.get("origin");
  return origin && origin !== "null"
    ? `Refused a cross-site change from ${origin}: ${untrustedOriginMessage(origin, ownOrigins, config) ?? ""} Scripts send an API token and no Origin.`
    : "Refused a cross-site request: changes are accepted only from the app's own pages, or from scripts with an API token.";
}
