import { z } from "zod";
import { LIMITS, metricSourceSchema, nameSchema } from "./budget";

// Query parameters of the live views and the SLO definition. Windows are Prometheus durations.

const DURATION = /^([1-9][0-9]{0,4})(m|h|d)$/;
const UNIT_SECONDS = { m: 60, h: 3600, d: 86400 } as const;

export function durationSeconds(duration: string): number {
  const match = DURATION.exec(duration);
  if (!match) return Number.NaN;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

const windowSchema = z
  .string()
  .regex(DURATION, "Window is a duration like 5m, 1h or 1d")
  .refine((w) => durationSeconds(w) >= 60 && durationSeconds(w) <= 7 * 86400, "Window must be between 1m and 7d");

const quantileSchema = z
  .union(
    [z.literal("0.5"), z.literal("0.95"), z.literal("0.99"), z.literal("p50"), z.literal("p95"), z.literal("p99")],
    {
      error: "Quantile must be 0.5, 0.95 or 0.99 (or p50, p95, p99)",
    },
  )
  .transform((q) => ({ p50: 0.5, p95: 0.95, p99: 0.99 })[q as "p50"] ?? Number(q));

const unixTimeSchema = z.coerce
  .number({ error: "Time is a unix timestamp in seconds" })
  .int("Time is a whole number of seconds")
  .min(946684800, "Time must be after the year 2000")
  .refine((t) => t <= Date.now() / 1000 + 60, "Time cannot be in the future");

export const waterfallQuerySchema = z.object({
  quantile: quantileSchema.default(0.95),
  window: windowSchema.default("5m"),
  at: unixTimeSchema.optional(),
  compare: z
    .union([z.literal("1h"), z.literal("1d"), z.literal("")])
    .or(unixTimeSchema.transform(String))
    .optional()
    .transform((c) => (c === "" ? undefined : c)),
});

export type WaterfallQuery = z.output<typeof waterfallQuerySchema>;

export const sloQuerySchema = z.object({
  window: z
    .union([z.literal("7d"), z.literal("28d"), z.literal("30d")], { error: "Window must be 7d, 28d or 30d" })
    .optional(),
  at: unixTimeSchema.optional(),
});

export const sloInputSchema = z.object({
  name: nameSchema("Name", 120),
  indicator: nameSchema("Indicator", 60).default("TTFT"),
  source: metricSourceSchema,
  thresholdMs: z
    .number({ error: "Enter the threshold in milliseconds" })
    .finite()
    .positive("Threshold must be more than 0 ms")
    .max(LIMITS.maxBudgetMs, "Threshold must be at most one hour"),
  objective: z
    .number({ error: "Enter the objective as a share, e.g. 0.99" })
    .min(0.5, "Objective must be at least 0.5 (50 %)")
    .max(0.99999, "Objective must be below 1: an SLO of 100 % has no error budget"),
  windowDays: z
    .union([z.literal(7), z.literal(28), z.literal(30)], { error: "Window must be 7, 28 or 30 days" })
    .default(28),
  thresholdMode: z.enum(["snap", "interpolate"], { error: "Threshold mode is snap or interpolate" }).default("snap"),
});

export const sloUpdateSchema = sloInputSchema.extend({
  version: z.number({ error: "version (the version this edit is based on) is required" }).int().positive(),
});

export const bucketBoundsInputSchema = z.object({ source: metricSourceSchema });
