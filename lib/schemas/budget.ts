import { z } from "zod";
import type { BudgetDocument } from "@/lib/domain/budget";
import { PRESET_IDS } from "@/lib/domain/presets";
import { HISTOGRAM_KINDS, HISTOGRAM_UNITS } from "@/lib/domain/units";
import { nameSchema, plainText, storable } from "./text";

export { nameSchema };

// The one definition of a valid budget, shared by the API handlers and the browser form.

/**
 * Bounds of a budget. Components are capped per budget, not only per stage: every live view asks
 * Prometheus for all of them in one query, and a pipeline of more than 100 budgeted parts is a
 * catalog, not a latency budget.
 */
export const LIMITS = {
  stages: 40,
  componentsPerStage: 12,
  componentsPerBudget: 100,
  matchers: 12,
  maxBudgetMs: 3_600_000,
} as const;

const budgetMsSchema = z
  .number({ error: "Enter a number of milliseconds" })
  .finite("Enter a finite number of milliseconds")
  .positive("Must be more than 0 ms")
  .max(LIMITS.maxBudgetMs, "Must be at most one hour (3,600,000 ms)")
  .nullable();

export const percentileBudgetsSchema = z
  .object({ p50: budgetMsSchema, p95: budgetMsSchema, p99: budgetMsSchema })
  .superRefine((b, ctx) => {
    if (b.p50 !== null && b.p95 !== null && b.p95 < b.p50)
      ctx.addIssue({ code: "custom", path: ["p95"], message: "p95 cannot be below p50" });
    if (b.p95 !== null && b.p99 !== null && b.p99 < b.p95)
      ctx.addIssue({ code: "custom", path: ["p99"], message: "p99 cannot be below p95" });
    else if (b.p50 !== null && b.p99 !== null && b.p99 < b.p50)
      ctx.addIssue({ code: "custom", path: ["p99"], message: "p99 cannot be below p50" });
  });

export const metricNameSchema = z
  .string()
  .trim()
  .min(1, "Metric name is required")
  .max(200, "Metric name must be at most 200 characters")
  .regex(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/, "Metric names use letters, digits, _ and : and do not start with a digit")
  .refine((m) => !m.endsWith("_bucket"), "Give the histogram's base name, without _bucket");

export const labelNameSchema = z
  .string()
  .regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, "Label names use letters, digits and _ and do not start with a digit")
  .refine((n) => !n.startsWith("__"), "Label names starting with __ are reserved")
  .refine((n) => n !== "le", "le is the bucket label and cannot be a matcher");

const labelValueSchema = plainText(
  storable(
    z.string({ error: "Label values are text" }).max(200, "Label values must be at most 200 characters"),
    "Label value",
  ),
  "Label value",
);

/**
 * Label matchers as an object of name → value. Names are checked on the caller's own keys, before
 * an object is rebuilt: a rebuilt object would silently drop "__proto__".
 */
const labelRecordSchema = z.record(z.string(), labelValueSchema, {
  error: "Label matchers are an object of label name to value",
});
const matchersSchema = z.preprocess<unknown, typeof labelRecordSchema, Record<string, string>>((value, ctx) => {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const names = Object.keys(value);
    if (names.length > LIMITS.matchers)
      ctx.addIssue({ code: "custom", message: `At most ${LIMITS.matchers} label matchers`, input: value });
    for (const name of names) {
      const result = labelNameSchema.safeParse(name);
      if (!result.success)
        ctx.addIssue({ code: "custom", path: [name], message: result.error.issues[0]!.message, input: value });
    }
  }
  return value;
}, labelRecordSchema);

export const metricSourceSchema = z.object({
  preset: z.enum(PRESET_IDS, { error: `Preset must be one of ${PRESET_IDS.join(", ")}` }),
  metric: metricNameSchema,
  matchers: matchersSchema,
  unit: z.enum(HISTOGRAM_UNITS, { error: `Unit must be one of ${HISTOGRAM_UNITS.join(", ")}` }).optional(),
  kind: z.enum(HISTOGRAM_KINDS, { error: `Kind must be ${HISTOGRAM_KINDS.join(" or ")}` }).optional(),
});

export const componentSchema = z.object({
  name: nameSchema("Component name"),
  budgetMs: percentileBudgetsSchema,
  source: metricSourceSchema.nullable(),
});

export const stageSchema = z.object({
  name: nameSchema("Stage name"),
  components: z
    .array(componentSchema)
    .min(1, "A stage needs at least one component")
    .max(LIMITS.componentsPerStage, `A stage holds at most ${LIMITS.componentsPerStage} parallel components`),
});

export const stagesSchema = z
  .array(stageSchema)
  .max(LIMITS.stages, `At most ${LIMITS.stages} stages`)
  .superRefine((stages, ctx) => {
    const count = stages.reduce((n, stage) => n + stage.components.length, 0);
    if (count > LIMITS.componentsPerBudget)
      ctx.addIssue({
        code: "custom",
        message: `A budget holds at most ${LIMITS.componentsPerBudget} components (this one has ${count})`,
      });
  });

const budgetDocumentObject = z.object({
  indicator: nameSchema("Indicator", 60),
  targetMs: z
    .number({ error: "Enter the target in milliseconds" })
    .finite()
    .positive("Target must be more than 0 ms")
    .max(LIMITS.maxBudgetMs, "Target must be at most one hour"),
  quantile: z.union([z.literal(0.5), z.literal(0.95), z.literal(0.99)], {
    error: "Quantile must be 0.5, 0.95 or 0.99",
  }),
  stages: stagesSchema,
  endToEndSource: metricSourceSchema.nullable().default(null),
});

export function requireUniqueNames(
  doc: { stages: { name: string; components: { name: string }[] }[] },
  ctx: z.RefinementCtx,
) {
  const seenStages = new Set<string>();
  const seenComponents = new Set<string>();
  doc.stages.forEach((stage, s) => {
    if (seenStages.has(stage.name.toLowerCase()))
      ctx.addIssue({
        code: "custom",
        path: ["stages", s, "name"],
        message: `Another stage is already called “${stage.name}”`,
      });
    seenStages.add(stage.name.toLowerCase());
    stage.components.forEach((component, c) => {
      if (seenComponents.has(component.name.toLowerCase())) {
        ctx.addIssue({
          code: "custom",
          path: ["stages", s, "components", c, "name"],
          message: `Another component is already called “${component.name}”`,
        });
      }
      seenComponents.add(component.name.toLowerCase());
    });
  });
}

export const budgetDocumentSchema = budgetDocumentObject.superRefine(
  requireUniqueNames,
) satisfies z.ZodType<BudgetDocument>;

export const saveBudgetSchema = budgetDocumentObject
  .extend({
    version: z.number({ error: "version (the version this edit is based on) is required" }).int().positive(),
    message: plainText(storable(z.string().max(500, "Message must be at most 500 characters"), "Message"), "Message", {
      multiLine: true,
    }).optional(),
  })
  .superRefine(requireUniqueNames);

export type SaveBudgetInput = z.infer<typeof saveBudgetSchema>;
