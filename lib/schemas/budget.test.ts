import { describe, expect, it } from "vitest";
import { chatApi } from "@/prisma/seed-data";
import { budgetDocumentSchema, saveBudgetSchema } from "./budget";
import { fieldErrors } from "./parse";

const valid = { indicator: "TTFT", targetMs: 700, quantile: 0.95, stages: structuredClone(chatApi.stages) };

function errorsOf(input: unknown): Record<string, string> {
  const result = budgetDocumentSchema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
}

const withComponent = (patch: Record<string, unknown>) => ({
  ...valid,
  stages: [
    { name: "A", components: [{ name: "a", budgetMs: { p50: null, p95: 10, p99: null }, source: null, ...patch }] },
  ],
});

describe("budget validation", () => {
  it("accepts the seed budget", () => {
    expect(errorsOf(valid)).toEqual({});
  });

  it.each([
    [
      "negative budget",
      { budgetMs: { p50: null, p95: -1, p99: null } },
      "stages.0.components.0.budgetMs.p95",
      "Must be more than 0 ms",
    ],
    [
      "zero budget",
      { budgetMs: { p50: null, p95: 0, p99: null } },
      "stages.0.components.0.budgetMs.p95",
      "Must be more than 0 ms",
    ],
    [
      "NaN budget",
      { budgetMs: { p50: null, p95: Number.NaN, p99: null } },
      "stages.0.components.0.budgetMs.p95",
      "Enter a number of milliseconds",
    ],
    [
      "string budget",
      { budgetMs: { p50: null, p95: "10", p99: null } },
      "stages.0.components.0.budgetMs.p95",
      "Enter a number of milliseconds",
    ],
    [
      "huge budget",
      { budgetMs: { p50: null, p95: 1e12, p99: null } },
      "stages.0.components.0.budgetMs.p95",
      "Must be at most one hour (3,600,000 ms)",
    ],
    [
      "p95 below p50",
      { budgetMs: { p50: 20, p95: 10, p99: null } },
      "stages.0.components.0.budgetMs.p95",
      "p95 cannot be below p50",
    ],
    [
      "p99 below p95",
      { budgetMs: { p50: null, p95: 20, p99: 10 } },
      "stages.0.components.0.budgetMs.p99",
      "p99 cannot be below p95",
    ],
    ["empty name", { name: "  " }, "stages.0.components.0.name", "Component name is required"],
    [
      "control characters",
      { name: "a\u0000b" },
      "stages.0.components.0.name",
      "Component name contains characters that are not allowed",
    ],
    [
      "bad metric",
      { source: { preset: "custom", metric: "9lives", matchers: {} } },
      "stages.0.components.0.source.metric",
      "Metric names use letters, digits, _ and : and do not start with a digit",
    ],
    [
      "_bucket metric",
      { source: { preset: "custom", metric: "x_bucket", matchers: {} } },
      "stages.0.components.0.source.metric",
      "Give the histogram's base name, without _bucket",
    ],
    [
      "reserved label",
      { source: { preset: "custom", metric: "x", matchers: { __name__: "y" } } },
      "stages.0.components.0.source.matchers.__name__",
      "Label names starting with __ are reserved",
    ],
    [
      "le matcher",
      { source: { preset: "custom", metric: "x", matchers: { le: "0.5" } } },
      "stages.0.components.0.source.matchers.le",
      "le is the bucket label and cannot be a matcher",
    ],
    [
      "lone surrogate",
      { source: { preset: "custom", metric: "x", matchers: { stage: "\uD800" } } },
      "stages.0.components.0.source.matchers.stage",
      "Label value is not valid Unicode (it has a lone surrogate)",
    ],
    [
      "unknown preset",
      { source: { preset: "datadog", metric: "x", matchers: {} } },
      "stages.0.components.0.source.preset",
      "Preset must be one of generic, vllm, sglang, dynamo, llm-d, tgi, otel-genai, otel-spanmetrics, tempo-spanmetrics, custom",
    ],
    [
      "unknown unit",
      { source: { preset: "custom", metric: "x", matchers: {}, unit: "minutes" } },
      "stages.0.components.0.source.unit",
      "Unit must be one of seconds, milliseconds, microseconds, nanoseconds",
    ],
    [
      "unknown kind",
      { source: { preset: "custom", metric: "x", matchers: {}, kind: "exponential" } },
      "stages.0.components.0.source.kind",
      "Kind must be classic or native",
    ],
  ])("%s is refused with a message on its field", (_what, patch, path, message) => {
    expect(errorsOf(withComponent(patch))).toEqual({ [path]: message });
  });

  it("refuses duplicate stage and component names, case-insensitively", () => {
    const c = (name: string) => ({ name, budgetMs: { p50: null, p95: 1, p99: null }, source: null });
    const errors = errorsOf({
      ...valid,
      stages: [
        { name: "A", components: [c("x")] },
        { name: "a", components: [c("X")] },
      ],
    });
    expect(errors).toEqual({
      "stages.1.name": "Another stage is already called “a”",
      "stages.1.components.0.name": "Another component is already called “X”",
    });
  });

  it("refuses an empty stage and a quantile other than p50/p95/p99", () => {
    expect(errorsOf({ ...valid, quantile: 0.9, stages: [{ name: "A", components: [] }] })).toEqual({
      quantile: "Quantile must be 0.5, 0.95 or 0.99",
      "stages.0.components": "A stage needs at least one component",
    });
  });

  it("caps a budget at 100 components: 40 stages of 12 parallel ones would defeat every live view's cache", () => {
    const stage = (s: number, n: number) => ({
      name: `S${s}`,
      components: Array.from({ length: n }, (_, c) => ({
        name: `C${s}-${c}`,
        budgetMs: { p50: null, p95: 1, p99: null },
        source: null,
      })),
    });
    expect(errorsOf({ ...valid, stages: Array.from({ length: 10 }, (_, s) => stage(s, 10)) })).toEqual({});
    expect(errorsOf({ ...valid, stages: Array.from({ length: 40 }, (_, s) => stage(s, 12)) })).toEqual({
      stages: "A budget holds at most 100 components (this one has 480)",
    });
  });

  it("requires the version a save is based on", () => {
    const result = saveBudgetSchema.safeParse(valid);
    expect(result.success ? {} : fieldErrors(result.error)).toEqual({
      version: "version (the version this edit is based on) is required",
    });
  });
});
