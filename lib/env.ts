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
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  cached ??= envSchema.parse({ ...process.env, PROMETHEUS_URL: process.env.PROMETHEUS_URL || undefined });
  return cached;
}
