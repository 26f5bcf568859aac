import { z } from "zod";

// Environment, read once and validated. The launcher (scripts/serve.ts) sets DATABASE_URL to
// the embedded database and LB_DATABASE_KIND=embedded when no DATABASE_URL was given.
const envSchema = z.object({
  DATABASE_URL: z.string().url("DATABASE_URL must be a postgresql:// URL").optional(),
  LB_DATABASE_KIND: z.enum(["postgres", "embedded"]).default("postgres"),
  LB_DEFAULT_AUTHOR: z.string().min(1).max(120).default("local"),
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().max(100).default(10),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  cached ??= envSchema.parse(process.env);
  return cached;
}
