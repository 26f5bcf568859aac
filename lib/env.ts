import "server-only";
import { z } from "zod";
import { parseRoleMap, ROLES } from "@/lib/domain/rights";

const flag = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

// Environment, read once and validated. The launcher (scripts/serve.ts) sets DATABASE_URL to
// the embedded database and LB_DATABASE_KIND=embedded when no DATABASE_URL was given.
const envSchema = z
  .object({
    DATABASE_URL: z.string().url("DATABASE_URL must be a postgresql:// URL").optional(),
    LB_DATABASE_KIND: z.enum(["postgres", "embedded"]).default("postgres"),
    DATABASE_POOL_SIZE: z.coerce.number().int().positive().max(100).default(10),
    PROMETHEUS_URL: z.string().url("PROMETHEUS_URL must be an http(s):// URL").optional(),
    PROMETHEUS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
    /** A query outstanding this long asks the breaker's trivial probe (is Prometheus answering at all?). */
    PROMETHEUS_SLOW_AFTER_MS: z.coerce.number().int().min(100).max(60_000).default(750),
    /** The app's public URL, for links in alert annotations; the request's own origin when unset. */
    LB_PUBLIC_URL: z.string().url("LB_PUBLIC_URL must be an http(s):// URL").optional(),
    /** More origins the app is reached at, comma-separated (https://lb.internal,http://10.0.0.5:3000). */
    LB_TRUSTED_ORIGINS: z
      .string()
      .default("")
      .transform((list, ctx) => {
        const origins: string[] = [];
        for (const entry of list
          .split(",")
          .map((e) => e.trim())
          .filter(Boolean)) {
          try {
            const url = new URL(entry);
            if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
            origins.push(url.origin);
          } catch {
            ctx.addIssue({
              code: "custom",
              message: `LB_TRUSTED_ORIGINS: "${entry}" is not an http(s) origin like https://lb.example.com`,
            });
          }
        }
        return origins;
      }),
    /** Proxies whose X-Forwarded-For is believed: addresses, CIDR ranges, "loopback", "private". */
    LB_TRUSTED_PROXIES: z.string().optional(),
    /** How long a component must be over budget before ComponentOverBudget fires. */
    LB_ALERT_FOR: z
      .string()
      .regex(/^[1-9][0-9]{0,3}[smh]$/, "LB_ALERT_FOR is a duration like 30s, 5m or 1h")
      .default("5m"),
    /** Where to write the rule file and reload Prometheus on every change (the demo sets it). */
    LB_RULES_FILE: z.string().optional(),
    /** promtool, to check the rule file before it is written; found on PATH when unset. */
    LB_PROMTOOL: z.string().optional(),
    /** The bearer token Alertmanager's webhook must send; the webhook is refused while unset. */
    LB_ALERTMANAGER_TOKEN: z.string().min(16, "LB_ALERTMANAGER_TOKEN must be at least 16 characters").optional(),
    /** The bearer token Prometheus sends to scrape GET /metrics; /metrics answers 404 while unset. */
    LB_METRICS_TOKEN: z.string().min(16, "LB_METRICS_TOKEN must be at least 16 characters").optional(),
    /** Signs session cookies. The launcher generates one into the data folder when unset. */
    LB_AUTH_SECRET: z.string().min(32, "LB_AUTH_SECRET must be at least 32 characters").optional(),
    /** Let people who are not signed in read dashboards (the demo turns it on). */
    LB_ANONYMOUS_VIEW: flag.default(false),
    /** Where a trace ID opens its trace: an http(s) URL with a {traceId} placeholder (Grafana Explore, Jaeger). */
    LB_TRACE_URL_TEMPLATE: z
      .string()
      .refine((value) => /^https?:\/\/[^\s]+$/.test(value) && value.includes("{traceId}"), {
        message:
          "LB_TRACE_URL_TEMPLATE is an http(s) URL with {traceId} in it, e.g. http://jaeger:16686/trace/{traceId}",
      })
      .optional(),
    /** Single sign-on through an OpenID Connect provider: all three, or none. */
    LB_OIDC_ISSUER: z.string().url("LB_OIDC_ISSUER must be the provider's issuer URL").optional(),
    LB_OIDC_CLIENT_ID: z.string().min(1).optional(),
    LB_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** The sign-in button's label: "Sign in with <name>". */
    LB_OIDC_NAME: z.string().min(1).max(40).default("single sign-on"),
    LB_OIDC_SCOPES: z.string().default("openid email profile"),
    /** The claim that carries a role or groups (e.g. "groups"); unset: SSO users get the default role. */
    LB_OIDC_ROLE_CLAIM: z.string().min(1).optional(),
    /** Claim values that grant a role, e.g. "sre-leads=editor,platform-admins=admin". */
    LB_OIDC_ROLE_MAP: z
      .string()
      .default("")
      .superRefine((mapping, ctx) => {
        try {
          parseRoleMap(mapping);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: `LB_OIDC_ROLE_MAP: ${(error as Error).message}` });
        }
      }),
    LB_OIDC_DEFAULT_ROLE: z.enum(ROLES).default("viewer"),
  })
  .refine(
    (env) =>
      [0, 3].includes([env.LB_OIDC_ISSUER, env.LB_OIDC_CLIENT_ID, env.LB_OIDC_CLIENT_SECRET].filter(Boolean).length),
    { message: "Single sign-on needs LB_OIDC_ISSUER, LB_OIDC_CLIENT_ID and LB_OIDC_CLIENT_SECRET together" },
  );

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/**
 * What is wrong with the environment, one message a line naming the variable and the entry; empty
 * when it is valid. The launcher (scripts/serve.ts) refuses to start with any.
 */
export function environmentProblems(source: NodeJS.ProcessEnv = process.env): string[] {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([, value]) => value !== "")));
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const name = issue.path.join(".");
    return !name || issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
  });
}

export function env(): Env {
  // An empty variable (FOO= in a shell or a compose file) means "not set".
  cached ??= envSchema.parse(Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== "")));
  return cached;
}
