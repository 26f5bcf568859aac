import { z } from "zod";
import { LIMITS, metricSourceSchema, nameSchema, requireUniqueNames, stagesSchema } from "./budget";
import { windowSchema } from "./live";
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

/** A pipeline not yet saved (the new-service wizard): stages of named sources, no budgets yet. */
export const proposalDraftSchema = z
  .object({
    quantile: z
      .union([z.literal(0.5), z.literal(0.95), z.literal(0.99)], { error: "Quantile must be 0.5, 0.95 or 0.99" })
      .default(0.95),
    targetMs: z
      .number({ error: "Enter the target in milliseconds" })
      .finite()
      .positive("Target must be more than 0 ms")
      .max(LIMITS.maxBudgetMs, "Target must be at most one hour"),
    window: windowSchema.default("1h"),
    stages: z
      .array(
        z.object({
          name: nameSchema("Stage name"),
          components: z
            .array(z.object({ name: nameSchema("Component name"), source: metricSourceSchema }))
            .min(1, "A stage needs at least one component")
            .max(LIMITS.componentsPerStage, `A stage holds at most ${LIMITS.componentsPerStage} parallel components`),
        }),
      )
      .min(1, "Pick at least one stage")
      .max(LIMITS.stages, `At most ${LIMITS.stages} stages`),
  })
  .superRefine((draft, ctx) => {
    const count = draft.stages.reduce((n, s) => n + s.components.length, 0);
    if (count > LIMITS.componentsPerBudget)
      ctx.addIssue({ code: "custom", path: ["stages"], message: `At most ${LIMITS.componentsPerBudget} components` });
    requireUniqueNames(draft, ctx);
  });
