import { z } from "zod";
import { INDICATORS } from "@/lib/domain/experiments";
import { slugSchema } from "./service";
import { nameSchema, textSchema } from "./text";

// ISO 8601 with a time zone, nothing else: new Date() reads "0" as the year 2000.
const dateSchema = z.iso
  .datetime({ offset: true, error: "Use an ISO date and time with a time zone, e.g. 2026-11-20T00:00:00Z" })
  .transform((s) => new Date(s));

export const createExperimentSchema = z
  .object({
    service: slugSchema,
    name: nameSchema("Name", 120),
    hypothesis: textSchema("Hypothesis", 2000).default(""),
    variants: z
      .array(
        z.object({
          name: z
            .string({ error: "Variant names are text" })
            .trim()
            .regex(/^[A-Za-z0-9_.-]{1,60}$/, "Variant names use letters, digits, _ . and -"),
          weight: z.number({ error: "Weights are numbers" }).positive("Weights are positive").max(1e6),
        }),
        { error: "Variants are a list of { name, weight }" },
      )
      .min(2, "An experiment needs a control and at least one treatment")
      .max(8, "At most 8 variants"),
    indicators: z.array(z.enum(INDICATORS)).min(1, "Judge at least one latency indicator").default(["ttftMs"]),
    judgedPercentile: z
      .union([z.literal(0.5), z.literal(0.95), z.literal(0.99)], {
        error: "The judged percentile is 0.5, 0.95 or 0.99",
      })
      .default(0.95),
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

export const EXPERIMENT_DECISIONS = ["ship", "do-not-ship", "iterate"] as const;

/** Running → stopped (no more data) → decided (with the decision and why), or back to running. */
export const experimentStatusSchema = z
  .object({
    version: z.number({ error: "version (the version this change is based on) is required" }).int().positive(),
    status: z.enum(["running", "stopped", "decided"], { error: "Status is running, stopped or decided" }),
    decision: z
      .enum(EXPERIMENT_DECISIONS, { error: "Decision is ship, do-not-ship or iterate" })
      .nullable()
      .default(null),
    decisionNote: textSchema("Decision note", 2000).default(""),
  })
  .superRefine((s, ctx) => {
    if (s.status === "decided" && !s.decision)
      ctx.addIssue({
        code: "custom",
        path: ["decision"],
        message: "Record the decision: ship, do-not-ship or iterate",
      });
    if (s.status !== "decided" && s.decision)
      ctx.addIssue({ code: "custom", path: ["decision"], message: "Only a decided experiment has a decision" });
  });
