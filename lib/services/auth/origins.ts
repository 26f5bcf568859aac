import "server-only";
import { isOwnCallback, trustedOriginsOf, untrustedOriginMessage, type OriginConfig } from "@/lib/domain/origins";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// Which pages may sign in and change things: one rule for proxy.ts, the sign-in routes and
// better-auth's own origin check (lib/api/security.ts says what it is).

export function originConfig(): OriginConfig {
  const { LB_PUBLIC_URL, LB_TRUSTED_ORIGINS } = env();
  return { publicUrl: LB_PUBLIC_URL, extraOrigins: LB_TRUSTED_ORIGINS };
}

export function trustedOriginsFor(request: Request): string[] {
  return trustedOriginsOf(originConfig(), request.url, request.headers);
}

/**
 * Refuses a sign-in, sign-out or callback POST from a page the app does not trust, saying what
 * to configure instead of better-auth's bare "Invalid origin". Scripts send no Origin and are let
 * through to better-auth, which checks its callback URLs itself.
 */
export function checkSignInOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const message = untrustedOriginMessage(origin, trustedOriginsFor(request), originConfig());
  if (message) throw new AppError("FORBIDDEN", message, undefined, { reason: "untrusted_origin" });
}

/** The sign-in fields that name where better-auth sends the browser afterwards. */
const CALLBACK_FIELDS = ["callbackURL", "errorCallbackURL", "newUserCallbackURL"] as const;

/**
 * Refuses a sign-in whose callback URLs leave the app: each is a path on this site or on one of
 * its own origins, by the same rule as every change (never any https:// URL, as better-auth's
 * wildcard host would allow). Checked before the password, so a refused sign-in signs nobody in.
 */
export function checkSignInCallbacks(request: Request, body: unknown): void {
  if (typeof body !== "object" || body === null) return;
  const trusted = trustedOriginsFor(request);
  for (const field of CALLBACK_FIELDS) {
    const value = (body as Record<string, unknown>)[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string" || !isOwnCallback(value, trusted))
      throw new AppError(
        "FORBIDDEN",
        `${field} must be a path on this site (like /services) or a URL on one of the app's own origins (LB_PUBLIC_URL, LB_TRUSTED_ORIGINS): a sign-in never sends the browser to another site.`,
        { [field]: "Not a path on this site or one of its own origins" },
        { reason: "untrusted_callback" },
      );
  }
}
