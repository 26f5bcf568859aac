import "server-only";
import { countRecentAudit } from "@/lib/db/audit";
import { db } from "@/lib/db/client";
import {
  clearSignInFailures,
  forgetSignInFailures,
  releaseSignInAttempt,
  reserveSignInAttempt,
} from "@/lib/db/sign-in-failures";
import { AppError } from "@/lib/errors";
import { limiterKey } from "@/lib/net/client-address";
import { clientAddress } from "@/lib/net/peer";
import { ANONYMOUS } from "../actor";
import { recordAudit } from "../audit";
import { notifyAuthChange } from "../mutation";
import { forgetActors } from "./actor-cache";
import { auth } from "./better-auth";
import { checkSignInCallbacks, checkSignInOrigin } from "./origins";
import { actorFromHeaders } from "./request";

/**
 * Failed password sign-ins allowed per account from one address, and per address over all
 * accounts, in the window before further tries from there wait. Keyed by address, so someone
 * else's guesses never lock a person out of their own account; at most `auditPerWindow` failures
 * a window reach the audit trail (the first per account and address, and each lockout).
 */
export const SIGN_IN_LIMITS = {
  perAccountAndAddress: 5,
  perAddress: 20,
  windowMinutes: 15,
  auditPerWindow: 100,
} as const;

const FAILED = "auth.sign-in-failed";
const LIMITED = "auth.sign-in-limited";
const SUPPRESSED = "auth.sign-in-failures-unlisted";
const MAX_BODY_BYTES = 16 * 1024;

const tooMany = (what: string) =>
  new AppError(
    "TOO_MANY_REQUESTS",
    `Too many failed sign-ins ${what} in the last ${SIGN_IN_LIMITS.windowMinutes} minutes. Wait ${SIGN_IN_LIMITS.windowMinutes} minutes, or ask an admin to check the audit trail.`,
  );

/**
 * The body as better-auth will read it. Only JSON is served: better-auth also reads form posts,
 * and a limiter (or a callback check) that read one format and not the other would see nothing.
 */
async function readJsonBody(request: Request): Promise<{ text: string; body: unknown }> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get("content-type") ?? ""))
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the sign-in as JSON with Content-Type: application/json.");
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES)
    throw new AppError("PAYLOAD_TOO_LARGE", "The sign-in body is too large.");
  try {
    return { text, body: JSON.parse(text) };
  } catch {
    throw new AppError("BAD_REQUEST", "The body is not valid JSON.");
  }
}

/** The email and password sign-in's body, its email, and its callbacks checked. */
async function readCredentials(request: Request): Promise<{ text: string; email: string }> {
  const { text, body } = await readJsonBody(request);
  checkSignInCallbacks(request, body);
  const email = (body as { email?: unknown } | null)?.email;
  if (typeof email !== "string" || !email.trim())
    throw new AppError("VALIDATION_FAILED", "Give your email address.", { email: "Give your email address" });
  return { text, email: email.trim().toLowerCase().slice(0, 254) };
}

/** Single sign-on's start: its callbacks checked, then better-auth's. */
async function signInWithProvider(request: Request): Promise<Response> {
  const { text, body } = await readJsonBody(request);
  checkSignInCallbacks(request, body);
  return auth().handler(new Request(request, { body: text }));
}

/** Audits a failure unless the window's allowance is spent; says so once when it is. */
async function auditFailure(what: { action: string; email: string; address: string; summary: string }, since: Date) {
  const recorded = await countRecentAudit(db(), { action: [FAILED, LIMITED, SUPPRESSED], since });
  if (recorded > SIGN_IN_LIMITS.auditPerWindow) return;
  const isLast = recorded === SIGN_IN_LIMITS.auditPerWindow;
  await recordAudit(db(), ANONYMOUS, {
    action: isLast ? SUPPRESSED : what.action,
    target: isLast ? "" : what.email,
    summary: isLast
      ? `More than ${SIGN_IN_LIMITS.auditPerWindow} failed sign-ins in ${SIGN_IN_LIMITS.windowMinutes} minutes: the rest of this window's are limited but not listed`
      : what.summary,
    address: what.address,
  });
}

/**
 * Password sign-in, limited per account and address and per address; failures audited within
 * bounds. The attempt is reserved in the database before the password is checked, so parallel
 * guesses (on any instance) get no more checks than the limit; it is kept if the password is
 * wrong and given back otherwise. IPv6 clients count per /64 (one host usually holds a whole /64).
 */
async function signInWithPassword(request: Request): Promise<Response> {
  const { text, email } = await readCredentials(request);
  const address = clientAddress(request.headers);
  const key = limiterKey(address);
  const now = new Date();
  const since = new Date(now.getTime() - SIGN_IN_LIMITS.windowMinutes * 60_000);
  const reserved = await reserveSignInAttempt(db(), { email, address: key, at: now, since, limits: SIGN_IN_LIMITS });
  if (reserved.id === null) {
    if (reserved.forAccountFromAddress >= SIGN_IN_LIMITS.perAccountAndAddress)
      throw tooMany("for this account from your address");
    throw tooMany("from your address");
  }
  let response: Response;
  try {
    response = await auth().handler(new Request(request, { body: text }));
  } catch (error) {
    await releaseSignInAttempt(db(), reserved.id);
    throw error;
  }
  if (response.status !== 401) {
    await releaseSignInAttempt(db(), reserved.id);
    if (response.ok) await clearSignInFailures(db(), { email, address: key });
    return response;
  }
  await forgetSignInFailures(db(), since);
  const failures = reserved.forAccountFromAddress;
  if (failures === 1)
    await auditFailure({ action: FAILED, email, address, summary: `Failed sign-in for ${email}` }, since);
  else if (failures === SIGN_IN_LIMITS.perAccountAndAddress)
    await auditFailure(
      {
        action: LIMITED,
        email,
        address,
        summary: `${failures} failed sign-ins for ${email} from ${key}: further tries from there wait ${SIGN_IN_LIMITS.windowMinutes} minutes`,
      },
      since,
    );
  return response;
}

/** Sign-out, audited with who it was. */
async function signOut(request: Request): Promise<Response> {
  const actor = await actorFromHeaders(request.headers).catch(() => ANONYMOUS);
  const response = await auth().handler(request);
  // The session is gone: no instance may still know it.
  await notifyAuthChange(db());
  if (response.ok && actor.kind === "user")
    await recordAudit(db(), actor, {
      action: "auth.sign-out",
      target: actor.email,
      summary: "Signed out",
      address: clientAddress(request.headers),
    });
  return response;
}

/**
 * The better-auth endpoints the app uses; the rest (self sign-up, changing one's own user or
 * password through better-auth, linking accounts) stay closed: admins manage people, the app's
 * own endpoints change passwords, the SSO provider manages its users.
 */
const SERVED = [
  /^\/sign-in\/(email|social)$/,
  /^\/callback\/[a-z0-9-]+$/,
  /^\/sign-out$/,
  /^\/get-session$/,
  /^\/error$/,
  /^\/ok$/,
];

/** better-auth's routes under /api/auth, with password sign-in going through the limiter. */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.replace(/^\/api\/auth/, "");
  if (!SERVED.some((pattern) => pattern.test(path))) throw new AppError("NOT_FOUND", "No such sign-in endpoint.");
  if (request.method === "POST") checkSignInOrigin(request);
  if (request.method === "POST" && path === "/sign-in/email") return signInWithPassword(request);
  if (request.method === "POST" && path === "/sign-in/social") return signInWithProvider(request);
  if (request.method === "POST" && path === "/sign-out") return signOut(request);
  const response = await auth().handler(request);
  // A single sign-on callback may have changed the person's role (its trigger tells the others).
  if (path.startsWith("/callback/")) forgetActors();
  return response;
}
