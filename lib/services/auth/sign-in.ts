import "server-only";
import { db } from "@/lib/db/client";
import { countRecentAudit } from "@/lib/db/audit";
import { AppError } from "@/lib/errors";
import { ANONYMOUS } from "../actor";
import { recordAudit } from "../audit";
import { auth } from "./better-auth";

/** Failed sign-ins allowed per account, and per address, in the window before further tries wait. */
export const SIGN_IN_LIMITS = { perAccount: 5, perAddress: 20, windowMinutes: 15 } as const;

/**
 * The caller's address: the last X-Forwarded-For entry, the one the reverse proxy in front of
 * the app appended (Next sets it to the socket's peer when there is none).
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers
    .get("x-forwarded-for")
    ?.split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  return (forwarded?.at(-1) ?? headers.get("x-real-ip") ?? "unknown").slice(0, 64);
}

async function emailOf(request: Request): Promise<string> {
  try {
    const body: unknown = await request.clone().json();
    const email = (body as { email?: unknown } | null)?.email;
    return typeof email === "string" ? email.trim().toLowerCase().slice(0, 254) : "";
  } catch {
    return "";
  }
}

const tooMany = (what: string) =>
  new AppError(
    "TOO_MANY_REQUESTS",
    `Too many failed sign-ins ${what} in the last ${SIGN_IN_LIMITS.windowMinutes} minutes. Wait a while, or ask an admin to check the audit trail.`,
  );

/** Password sign-in, limited per account and per address, with every failure in the audit trail. */
async function signInWithPassword(request: Request): Promise<Response> {
  const email = await emailOf(request);
  const address = clientAddress(request.headers);
  const since = new Date(Date.now() - SIGN_IN_LIMITS.windowMinutes * 60_000);
  const action = "auth.sign-in-failed";
  const [forAccount, fromAddress] = await Promise.all([
    email ? countRecentAudit(db(), { action, since, target: email }) : 0,
    countRecentAudit(db(), { action, since, address }),
  ]);
  if (forAccount >= SIGN_IN_LIMITS.perAccount) throw tooMany("for this account");
  if (fromAddress >= SIGN_IN_LIMITS.perAddress) throw tooMany("from your address");
  const response = await auth().handler(request);
  if (response.status === 401 || response.status === 403)
    await recordAudit(db(), ANONYMOUS, {
      action,
      target: email,
      summary: `Failed sign-in for ${email || "(no email)"}`,
      address,
    });
  return response;
}

/**
 * The better-auth endpoints the app uses; the rest (self sign-up, changing one's own user or
 * password, linking accounts) stay closed: admins manage people, the SSO provider its users.
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
  if (request.method === "POST" && path === "/sign-in/email") return signInWithPassword(request);
  return auth().handler(request);
}
