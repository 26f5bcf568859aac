import { z } from "zod";
import { quantileSchema, windowSchema } from "./live";

// Inputs of the calculators (capacity plan, queue) and the query strings of the live insight
// views (capacity, KPIs, report, what-if). Every bound is one a person can act on.

const number = (label: string) =>
  z.number({ error: `${label} must be a number` }).refine(Number.isFinite, `${label} must be a finite number`);

export const capacityPlanSchema = z.strictObject(
  {
    targetRps: number("Target RPS").pipe(
      z.number().positive("Target RPS must be above 0").max(1_000_000, "Target RPS must be at most 1,000,000"),
    ),
    avgLatencyS: number("Average latency").pipe(
      z.number().positive("Average latency must be above 0 s").max(3600, "Average latency must be at most 3600 s"),
    ),
    maxConcurrentPerGpu: number("Slots per GPU").pipe(
      z
        .number()
        .int("Slots per GPU must be a whole number")
        .min(1, "Slots per GPU must be at least 1")
        .max(100_000, "Slots per GPU must be at most 100,000"),
    ),
    targetUtilization: number("Target utilisation")
      .pipe(
        z
          .number()
          .gt(0, "Target utilisation must be above 0")
          .max(1, "Target utilisation is a share: at most 1 (every slot busy)"),
      )
      .default(0.8),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown field: ${issue.keys.join(", ")}` : undefined) },
);

export type CapacityPlanInput = z.output<typeof capacityPlanSchema>;

export const queueInputSchema = z.strictObject(
  {
    arrivalRps: number("Arrival rate").pipe(
      z.number().min(0, "Arrival rate cannot be negative").max(1_000_000, "Arrival rate must be at most 1,000,000 RPS"),
    ),
    serviceTimeS: number("Service time").pipe(
      z.number().positive("Service time must be above 0 s").max(3600, "Service time must be at most 3600 s"),
    ),
    servers: number("Servers")
      .pipe(
        z
          .number()
          .int("Servers must be a whole number")
          .min(1, "Servers must be at least 1")
          .max(10_000, "Servers must be at most 10,000"),
      )
      .default(1),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown field: ${issue.keys.join(", ")}` : undefined) },
);

export type QueueInput = z.output<typeof queueInputSchema>;

const optionalInt = (label: string, max: number) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,5}$/, `${label} must be a whole number from 1`)
    .transform(Number)
    .pipe(z.number().max(max, `${label} must be at most ${max.toLocaleString("en-US")}`))
    .optional();

export const capacityQuerySchema = z.object({
  window: windowSchema.default("5m"),
  /** The fleet's request slots, when no metric says (overrides llm_engine_slots). */
  servers: optionalInt("Servers", 10_000),
});

export const kpiQuerySchema = z.object({ window: windowSchema.default("5m") });

export const reportQuerySchema = z.object({
  window: windowSchema.default("1h"),
  format: z.enum(["json", "md"], { error: "Format must be json or md" }).default("json"),
});

export const whatIfQuerySchema = z.object({
  quantile: quantileSchema.default(0.95),
  window: windowSchema.default("5m"),
  change: z
    .array(
      z
        .string()
        .max(200, "A change is at most 200 characters")
        .refine((s) => !s.includes("\u0000"), "A change cannot contain a NUL character"),
    )
    .max(20, "At most 20 changes at once")
    .default([]),
});

export const proposalQuerySchema = z.object({
  quantile: quantileSchema.optional(),
  window: windowSchema.default("1h"),
});
