// Which pages may change things here, and where a sign-in may send the browser back to. Pure
// functions on URLs and headers: used by proxy.ts, the sign-in routes, better-auth's origin check
// and the sign-in page, and tested on their own.

export type OriginConfig = {
  /** LB_PUBLIC_URL: where people reach the app. */
  publicUrl?: string;
  /** LB_TRUSTED_ORIGINS: more origins the app is reached at (another hostname, a VPN address). */
  extraOrigins?: readonly string[];
};

/** LB_TRUSTED_ORIGINS as origins; entries that are not http(s) URLs are skipped (lib/env.ts reports them). */
export function parseOrigins(list: string | undefined): string[] {
  return (list ?? "").split(",").flatMap((entry) => {
    try {
      const url = new URL(entry.trim());
      return url.protocol === "http:" || url.protocol === "https:" ? [url.origin] : [];
    } catch {
      return [];
    }
  });
}

/**
 * A host only this machine or its own address can serve: localhost, or an IP address. A page of
 * another site cannot have such an origin and still reach us (DNS rebinding needs a hostname).
 */
export function isAddressHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^\d{1,3}(\.\d{1,3}){3}$/.test(host) ||
    (host.includes(":") && /^[0-9a-f:.]+$/.test(host))
  );
}

/**
 * The origins whose pages may change things here: the configured public URL and the extra trusted
 * origins; with no public URL configured (the demo, a first try), also the origin the request was
 * addressed to when that is localhost or an IP address, so the app works at whatever address it
 * is opened without trusting any hostname a browser was pointed at.
 */
export function trustedOriginsOf(config: OriginConfig, requestUrl: string, headers: Headers): string[] {
  const configured = [config.publicUrl, ...(config.extraOrigins ?? [])]
    .filter((url): url is string => Boolean(url))
    .map((url) => new URL(url).origin);
  const addressed = addressedOrigin(requestUrl, headers);
  const addressedHost = safeHostname(addressed);
  const trustAddressed = !config.publicUrl && addressedHost !== null && isAddressHost(addressedHost);
  return [...new Set(trustAddressed ? [...configured, addressed] : configured)];
}

/** Why a page's origin may not sign in or change things here, with what to set; null when it may. */
export function untrustedOriginMessage(
  origin: string,
  trusted: readonly string[],
  config: OriginConfig,
): string | null {
  if (trusted.includes(origin)) return null;
  if (config.publicUrl)
    return `This app is configured for ${new URL(config.publicUrl).origin} (LB_PUBLIC_URL) and this page is at ${origin}. Open it at ${new URL(config.publicUrl).origin}, or add ${origin} to LB_TRUSTED_ORIGINS.`;
  return `This page is at ${origin}, which the app does not trust. Set LB_PUBLIC_URL to the address people use (e.g. ${origin}), or add ${origin} to LB_TRUSTED_ORIGINS.`;
}

function safeHostname(origin: string): string | null {
  try {
    return new URL(origin).hostname;
  } catch {
    return null;
  }
}

function addressedOrigin(requestUrl: string, headers: Headers): string {
  const url = new URL(requestUrl);
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? url.host;
  const protocol = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? url.protocol.replace(/:$/, "");
  return `${protocol}://${host}`;
}

/**
 * Where to go after signing in: a path on this site, or "/". The value is resolved the way a
 * browser would (which drops tabs and newlines, and reads "\\" as "/"), and anything that would
 * leave this origin, or holds a character a browser would drop, is refused.
 */
export function localPath(next: string | undefined): string {
  if (!next || !next.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(next)) return "/";
  const base = "http://app.invalid";
  let resolved: URL;
  try {
    resolved = new URL(next, base);
  } catch {
    return "/";
  }
  // "/./..//evil.example" resolves to the path "//evil.example": another site, as a redirect.
  if (resolved.origin !== base || resolved.pathname.startsWith("//")) return "/";
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/**
 * Whether a sign-in may send the browser to `url` afterwards (better-auth's callbackURL and
 * its kin): a path on this site that `localPath` keeps as it is, or an http(s) URL on one of
 * the `trusted` origins (`trustedOriginsOf`). Anything else, another site, `//host`, `/\\host`,
 * `javascript:`, is refused.
 */
export function isOwnCallback(url: string, trusted: readonly string[]): boolean {
  if (/[\u0000-\u001f\u007f\\]/.test(url)) return false;
  if (url.startsWith("/")) return localPath(url) === url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === "http:" || parsed.protocol === "https:") && trusted.includes(parsed.origin);
}
