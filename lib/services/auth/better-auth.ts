import "server-only";
import { betterAuth } from "better-auth";
import { APIError } from "better-auth/api";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { genericOAuth } from "better-auth/plugins";
import { db } from "@/lib/db/client";
import { findUserIdByEmail, findUserRow, markSignedIn } from "@/lib/db/users";
import { roleFromClaim, type Role } from "@/lib/domain/rights";
import { env } from "@/lib/env";
import { CLIENT_ADDRESS_HEADER } from "@/lib/net/peer";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "@/lib/schemas/account";
import { recordAudit } from "../audit";
import { originConfig, trustedOriginsFor } from "./origins";

export const OIDC_PROVIDER_ID = "oidc";
const SESSION_DAYS = 7;

/** Only the SSO callback may set a role through better-auth (from the provider's claim). */
const isSsoCallback = (path: string | undefined) => path?.startsWith("/callback/") ?? false;

export const DEACTIVATED_MESSAGE = "This account is deactivated. Ask an admin of Latency Budgets to reactivate it.";

const SSO_ACTOR = { kind: "system", name: "single sign-on" } as const;

// Roles the SSO callback is about to change, by user id: audited once the change is stored.
const pendingRoleChanges = new Map<string, string>();

function createAuth() {
  const config = env();
  const publicUrl = config.LB_PUBLIC_URL;
  const sso = config.LB_OIDC_ISSUER && config.LB_OIDC_CLIENT_ID && config.LB_OIDC_CLIENT_SECRET;
  return betterAuth({
    appName: "Latency Budgets",
    // Without a public URL (the demo, a first try) links are built for whatever address the app
    // was opened at; which pages may sign in, and where a sign-in may return to, is decided by
    // trustedOrigins below, never by the host. (A dynamic baseURL with allowedHosts ["*"] would
    // make every https:// URL a trusted callback.) ./sign-in.ts checks callbacks by the same rule
    // first, with a message that says why.
    baseURL: publicUrl,
    basePath: "/api/auth",
    logger: {
      // Without a public URL the base URL follows the request on purpose (above): better-auth's
      // start-up warning that none is set would only puzzle whoever runs the demo.
      log: (level, message, ...args) => {
        if (!publicUrl && message.includes("Base URL is not set")) return;
        const write = level === "error" ? console.error : level === "warn" ? console.warn : console.log;
        write(`[Better Auth] ${message}`, ...args);
      },
    },
    // The same rule as every other change (lib/api/security.ts): the public URL, the extra
    // trusted origins, and with no public URL the address the app was opened at.
    trustedOrigins: (request) =>
      request ? trustedOriginsFor(request) : [originConfig().publicUrl, ...(originConfig().extraOrigins ?? [])],
    // The launcher always provides one; a bare `next start` without it cannot sign anybody in.
    secret: config.LB_AUTH_SECRET,
    database: prismaAdapter(db(), { provider: "postgresql" }),
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      // Admins add people (or single sign-on does); nobody signs themselves up.
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
    },
    user: {
      additionalFields: {
        // Open to input only so the SSO provider's claim reaches it; the user hooks below drop it
        // anywhere but the SSO callback, and ./sign-in.ts serves none of better-auth's
        // self-service endpoints (sign-up, update-user).
        role: { type: "string", required: false, input: true, defaultValue: config.LB_OIDC_DEFAULT_ROLE },
        // Read with every session, so a deactivation holds on the very next request.
        deactivatedAt: { type: "date", required: false, input: false },
      },
    },
    session: { expiresIn: SESSION_DAYS * 86400, updateAge: 86400 },
    // Sign-in attempts are limited per account and per address in ./sign-in.ts, in the database,
    // so the limit holds across instances.
    rateLimit: { enabled: false },
    advanced: {
      // better-auth skips its origin and callback checks under NODE_ENV=test unless told: the
      // tests run what production runs.
      disableOriginCheck: false,
      useSecureCookies: publicUrl?.startsWith("https:") ?? false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      // Set by the app's server from the socket (or trusted proxies), never by the client.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user, context) => ({
            data: { ...user, role: isSsoCallback(context?.path) ? user.role : config.LB_OIDC_DEFAULT_ROLE },
          }),
          after: async (user) => {
            await recordAudit(db(), SSO_ACTOR, {
              action: "user.create",
              target: user.email,
              summary: `${user.email} signed in through ${config.LB_OIDC_NAME} for the first time, as ${String(user.role)}`,
            });
          },
        },
        update: {
          before: async (user, context) => {
            if (!("role" in user)) return;
            if (!isSsoCallback(context?.path)) {
              const { role: _ignored, ...rest } = user;
              return { data: rest };
            }
            // The callback updates the provider's user by id, with its email in the data.
            const email = typeof user.email === "string" ? user.email.toLowerCase() : null;
            const id = email ? await findUserIdByEmail(db(), email) : null;
            const current = id ? await findUserRow(db(), id) : null;
            if (current && current.role !== user.role) pendingRoleChanges.set(current.id, current.role);
          },
          after: async (user) => {
            const before = pendingRoleChanges.get(user.id);
            if (before === undefined) return;
            pendingRoleChanges.delete(user.id);
            await recordAudit(db(), SSO_ACTOR, {
              action: "user.role",
              target: user.email,
              summary: `${config.LB_OIDC_NAME} changed the role of ${user.email} from ${before} to ${String(user.role)} at sign-in (claim ${config.LB_OIDC_ROLE_CLAIM})`,
            });
          },
        },
      },
      session: {
        create: {
          // A deactivated person gets no session, by password or single sign-on.
          before: async (session) => {
            const user = await findUserRow(db(), session.userId);
            // The code sends a single sign-on back to /sign-in?error=account_deactivated.
            if (user?.deactivatedAt)
              throw new APIError("FORBIDDEN", { message: DEACTIVATED_MESSAGE, code: "account_deactivated" });
          },
          after: async (session) => {
            const user = await findUserRow(db(), session.userId);
            if (!user) return;
            await markSignedIn(db(), user.id, new Date());
            await recordAudit(
              db(),
              { kind: "user", id: user.id, email: user.email, name: user.name, role: user.role as Role },
              {
                action: "auth.sign-in",
                target: user.email,
                summary: `Signed in as ${user.role}`,
                address: session.ipAddress ?? null,
              },
            );
          },
        },
      },
    },
    plugins: sso
      ? [
          genericOAuth({
            config: [
              {
                providerId: OIDC_PROVIDER_ID,
                name: config.LB_OIDC_NAME,
                discoveryUrl: `${config.LB_OIDC_ISSUER!.replace(/\/$/, "")}/.well-known/openid-configuration`,
                clientId: config.LB_OIDC_CLIENT_ID!,
                clientSecret: config.LB_OIDC_CLIENT_SECRET!,
                scopes: config.LB_OIDC_SCOPES.split(/\s+/).filter(Boolean),
                pkce: true,
                // The provider is the source of truth for SSO users' names and, with a role claim, roles.
                overrideUserInfo: true,
                mapProfileToUser: (profile) => {
                  const claim = config.LB_OIDC_ROLE_CLAIM;
                  return claim
                    ? { role: roleFromClaim(profile[claim], config.LB_OIDC_ROLE_MAP, config.LB_OIDC_DEFAULT_ROLE) }
                    : {};
                },
              },
            ],
          }),
        ]
      : [],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { latencyBudgetsAuth?: Auth };

/** The process's better-auth instance, on the app's own database. */
export function auth(): Auth {
  globalForAuth.latencyBudgetsAuth ??= createAuth();
  return globalForAuth.latencyBudgetsAuth;
}

/** Whether single sign-on is configured, and its button's label. */
export function ssoOption(): { providerId: string; name: string } | null {
  const config = env();
  return config.LB_OIDC_ISSUER ? { providerId: OIDC_PROVIDER_ID, name: config.LB_OIDC_NAME } : null;
}
