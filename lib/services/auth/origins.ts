import "server-only";
import { trustedOriginsOf, untrustedOriginMessage, type OriginConfig } from "@/lib/domain/origins";
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
