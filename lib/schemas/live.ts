import { z } from "zod";
import { CALENDAR_NOMINAL_DAYS, isTimeZone } from "@/lib/domain/calendar";
import { TIMELINE_RANGES } from "@/lib/domain/timeline";
import { snapWindow } from "@/lib/domain/windows";
import { LIMITS, metricSourceSchema, nameSchema } from "./budget";

// Query parameters of the live views and the SLO definition. Windows are Prometheus durations.

const DURATION = /^([1-9][0-9]{0,4})(m|h|d)$/;
const UNIT_SECONDS = { m: 60, h: 3600, d: 86400 } as const;

export function durationSeconds(duration: string): number {
  const match = DURATION.exec(duration);
  if (!match) return Number.NaN;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

/** A live view's window: any duration from 1m to 7d, snapped to the nearest of LIVE_WINDOWS. */
export const windowSchema = z
  .string()
  .regex(DURATION, "Window is a duration like 5m, 1h or 1d")
  .refine((w) => durationSeconds(w) >= 60 && durationSeconds(w) <= 7 * 86400, "Window must be between 1m and 7d")
  .transform((w) => snapWindow(durationSeconds(w)));

export const quantileSchema = z
  .union(
    [z.literal("0.5"), z.literal("0.95"), z.literal("0.99"), z.literal("p50"), z.literal("p95"), z.literal("p99")],
    {
      error: "Quantile must be 0.5, 0.95 or 0.99 (or p50, p95, p99)",
    },
  )
  .transform((q) => ({ p50: 0.5, p95: 0.95, p99: 0.99 })[q as "p50"] ?? Number(q));

export const unixTimeSchema = z.coerce
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
    .union([z.literal("7d"), z.literal("28d"), z.literal("30d"), z.literal("period")], {
      error: "Window must be 7d, 28d, 30d or period (the SLO's current calendar period)",
    })
    .optional(),
  at: unixTimeSchema.optional(),
});

const sloFieldsSchema = z.object({
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
  windowKind: z.enum(["rolling", "calendar"], { error: "Window kind is rolling or calendar" }).default("rolling"),
  windowDays: z
    .union([z.literal(7), z.literal(28), z.literal(30)], { error: "Window must be 7, 28 or 30 days" })
    .default(28),
  calendarUnit: z.enum(["week", "month"], { error: "A calendar window is a week or a month" }).nullable().default(null),
  timeZone: z
    .string({ error: "Time zone is an IANA name like Europe/Berlin" })
    .max(64, "Time zone names are at most 64 characters")
    .refine(isTimeZone, "Not a time zone: use an IANA name like Europe/Berlin or UTC")
    .default("UTC"),
  thresholdMode: z.enum(["snap", "interpolate"], { error: "Threshold mode is snap or interpolate" }).default("snap"),
  budgetingMethod: z
    .enum(["occurrences", "timeslices"], { error: "Budgeting method is occurrences or timeslices" })
    .default("occurrences"),
  timesliceMinutes: z
    .number({ error: "Slice length is a whole number of minutes" })
    .int("Slice length is a whole number of minutes")
    .min(1, "Slices are at least 1 minute")
    .max(60, "Slices are at most 60 minutes")
    .nullable()
    .default(null),
  timesliceTarget: z
    .number({ error: "Slice target is a share, e.g. 0.95" })
    .min(0.5, "Slice target must be at least 0.5")
    .max(0.9999, "Slice target must be below 1")
    .nullable()
    .default(null),
});

type SloFieldsOutput = z.output<typeof sloFieldsSchema>;

/** Cross-field rules: a calendar window names its unit; timeslices name their length and target. */
function checkSloFields(slo: SloFieldsOutput, ctx: z.RefinementCtx) {
  if (slo.windowKind === "calendar" && !slo.calendarUnit)
    ctx.addIssue({ code: "custom", path: ["calendarUnit"], message: "A calendar window is a week or a month" });
  if (slo.budgetingMethod === "timeslices") {
    if (slo.timesliceMinutes === null)
      ctx.addIssue({
        code: "custom",
        path: ["timesliceMinutes"],
        message: "Timeslices need a slice length in minutes",
      });
    if (slo.timesliceTarget === null)
      ctx.addIssue({
        code: "custom",
        path: ["timesliceTarget"],
        message: "Timeslices need the share of a slice's requests that must meet the threshold",
      });
  }
}

/** Stored shape: a calendar window's length is its nominal one; unused fields are null. */
function normaliseSlo(slo: SloFieldsOutput) {
  const calendar = slo.windowKind === "calendar" && slo.calendarUnit ? slo.calendarUnit : null;
  const slices = slo.budgetingMethod === "timeslices";
  return {
    ...slo,
    windowDays: calendar ? CALENDAR_NOMINAL_DAYS[calendar] : slo.windowDays,
    calendarUnit: calendar,
    timesliceMinutes: slices ? slo.timesliceMinutes : null,
    timesliceTarget: slices ? slo.timesliceTarget : null,
  };
}

export const sloInputSchema = sloFieldsSchema.superRefine(checkSloFields).transform(normaliseSlo);

export type SloInput = z.output<typeof sloInputSchema>;

export const sloUpdateSchema = sloFieldsSchema
  .extend({
    version: z.number({ error: "version (the version this edit is based on) is required" }).int().positive(),
  })
  .superRefine(checkSloFields)
  .transform(({ version, ...slo }) => ({ version, ...normaliseSlo(slo) }));

export const bucketBoundsInputSchema = z.object({ source: metricSourceSchema });

export const timelineQuerySchema = z.object({
  quantile: quantileSchema.default(0.95),
  range: z.enum(TIMELINE_RANGES, { error: `Range must be one of ${TIMELINE_RANGES.join(", ")}` }).default("1h"),
  /** The rate window of each point, widened to the step when the step is longer. */
  window: windowSchema.default("5m"),
  /** The range's end; a time after now reads as now (a pinned moment's range may reach past it). */
  end: z.coerce
    .number({ error: "end is a unix timestamp in seconds" })
    .int("end is a whole number of seconds")
    .min(946684800, "end must be after the year 2000")
    .max(4_102_444_800, "end must be before the year 2100")
    .optional(),
});
export type TimelineQuery = z.output<typeof timelineQuerySchema>;

export const exemplarQuerySchema = z.object({
  /** A component's name, or "end-to-end" for the service's end-to-end histogram. */
  component: z
    .string({ error: "component is a component's name" })
    .min(1, "component is a component's name")
    .max(120, "component is at most 120 characters"),
  window: windowSchema.default("15m"),
  end: unixTimeSchema.optional(),
  limit: z.coerce
    .number({ error: "limit is a number" })
    .int("limit is a whole number")
    .min(1, "limit must be at least 1")
    .max(200, "limit must be at most 200")
    .default(20),
});

export const sloHistoryQuerySchema = z.object({
  /** How far back the history reaches; the SLO's own window when left out. */
  range: z
    .union([z.literal("1h"), z.literal("6h"), z.literal("1d"), z.literal("7d"), z.literal("28d"), z.literal("30d")], {
      error: "Range must be 1h, 6h, 1d, 7d, 28d or 30d",
    })
    .optional(),
  end: unixTimeSchema.optional(),
});
