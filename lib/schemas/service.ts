import { z } from "zod";
import { metricSourceSchema, nameSchema, requireUniqueNames, stagesSchema } from "./budget";
import { textSchema } from "./text";

export const slugSchema = z
  .string({ error: "Slug is required" })
  .trim()
  .min(2, "Slug must be at least 2 characters")
  .max(64, "Slug must be at most 64 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Slug uses lowercase letters, digits and single dashes, e.g. chat-api");

export const createServiceSchema = z
  .object({
    slug: slugSchema,
    name: nameSchema("Name", 120),
    description: textSchema("Description", 2000).default(""),
    indicator: nameSchema("Indicator", 60).default("TTFT"),
    targetMs: z
      .number({ error: "Enter the target in milliseconds" })
      .finite()
      .positive("Target must be more than 0 ms")
      .max(3_600_000, "Target must be at most one hour")
      .default(700),
    quantile: z
      .union([z.literal(0.5), z.literal(0.95), z.literal(0.99)], { error: "Quantile must be 0.5, 0.95 or 0.99" })
      .default(0.95),
    stages: stagesSchema.default([]),
    endToEndSource: metricSourceSchema.nullable().default(null),
  })
  .superRefine(requireUniqueNames);

export type CreateServiceInput = z.input<typeof createServiceSchema>;
