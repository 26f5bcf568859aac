import { z } from "zod";
import { nameSchema } from "./budget";
import { slugSchema } from "./service";

export const INDICATORS = ["ttftMs", "itlMs", "e2eMs"] as const;
export type Indicator = (typeof INDICATORS)[number];
export const INDICATOR_LABEL: Record<Indicator, string> = {
  ttftMs: "TTFT",
  itlMs: "inter-token latency",
  e2eMs: "end-to-end",
};

const dateSchema = z.coerce.date({ error: "Use an ISO date, e.g. 2026-11-20T00:00:00Z" });

export const createExperimentSchema = z
  .object({
    service: slugSchema,
    name: nameSchema("Name", 120),
    hypothesis: z.string().trim().max(2000, "Hypothesis must be at most 2000 characters").default(""),
    variants: z
      .array(
        z.object({
          name: z
            .string()
            .trim()
            .regex(/^[A-Za-z0-9_.-]{1,60}$/, "Variant names use letters, digits, _ . and -"),
          weight: z.number().positive("Weights are positive").max(1e6),
        }),
      )
      .min(2, "An experiment needs a control and at least one treatment")
      .max(8, "At most 8 variants"),
    indicators: z.array(z.enum(INDICATORS)).min(1, "Judge at least one latency indicator").default(["ttftMs"]),
    judgedPercentile: z.union([z.literal(0.5), z.literal(0.95), z.literal(0.99)]).default(0.95),
    qualityMaxDrop: z.number().min(0).max(1).nullable().default(null),
    startsAt: dateSchema.nullable().default(null),
    endsAt: dateSchema.nullable().default(null),
  })
  .superRefine((e, ctx) => {
    const names = e.variants.map((v) => v.name);
    names.forEach((name, i) => {
      if (names.indexOf(name) !== i)
        ctx.addIssue({
          code: "custom",
          path: ["variants", i, "name"],
          message: `Another variant is already called “${name}”`,
        });
    });
    if (e.startsAt && e.endsAt && e.endsAt <= e.startsAt)
      ctx.addIssue({ code: "custom", path: ["endsAt"], message: "The end must be after the start" });
  });

export const uploadQuerySchema = z.object({
  onError: z.enum(["skip", "reject"], { error: "onError is skip or reject" }).default("reject"),
});
