import "server-only";
import { z } from "zod";

// Environment, read once and validated. The launcher (scripts/serve.ts) sets DATABASE_URL to
// the embedded database and LB_DATABASE_KIND=embedded when no DATABASE_URL was given.
const envSchema = z.object({
  DATABASE_URL: z.string().url("DATABASE_URL must be a postgresql:// URL").optional(),
  LB_DATABASE_KIND: z.enum(["postgres", "embedded"]).default("postgres"),
  LB_DEFAULT_AUTHOR: z.string().min(1).max(120).default("local"),
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().max(100).default(10),
  PROMETHEUS_URL: z.string().url("PROMETHEUS_URL must be an http(s):// URL").optional(),
  PROMETHEUS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  /** The app's public URL, for links in alert annotations; the request's own origin when unset. */
  LB_PUBLIC_URL: z.string().url("LB_PUBLIC_URL must be an http(s):// URL").optional(),
  /** How long a component must be over budget before ComponentOverBudget fires. */
  LB_ALERT_FOR: z
    .string()
    .regex(/^[1-9][0-9]{0,3}[smh]$/, "LB_ALERT_FOR is a duration like 30s, 5m or 1h")
    .default("5m"),
  /** Where to write the rule file and reload Prometheus on every change (the demo sets it). */
  LB_RULES_FILE: z.string().optional(),
  /** The bearer token Alertmanager's webhook must send; the webhook is refused while unset. */
  LB_ALERTMANAGER_TOKEN: z.string().min(16, "LB_ALERTMANAGER_TOKEN must be at least 16 characters").optional(),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  // An empty variable (FOO= in a shell or a compose file) means "not set".
  cached ??= envSchema.parse(Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== "")));
  return cached;
}
