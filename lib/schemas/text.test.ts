import { describe, expect, it } from "vitest";
import { budgetDocumentSchema } from "./budget";
import { createExperimentSchema } from "./experiment";
import { optimizationInputSchema } from "./optimization";
import { fieldErrors } from "./parse";
import { createServiceSchema } from "./service";
import { sloInputSchema } from "./live";
import { chatApi } from "@/prisma/seed-data";
import type { z } from "zod";

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};

const source = { preset: "generic", metric: "llm_request_ttft_seconds", matchers: { service: "chat-api" } };
const budget = { indicator: "TTFT", targetMs: 700, quantile: 0.95, stages: structuredClone(chatApi.stages) };
const experiment = {
  service: "chat-api",
  name: "Prefix caching",
  variants: [
    { name: "control", weight: 50 },
    { name: "treatment", weight: 50 },
  ],
};

// Every text the database stores: a NUL (PostgreSQL rejects it) or a lone surrogate (it would be
// stored as U+FFFD) is refused with the field named.
const cases: [string, z.ZodType, unknown, string][] = [
  ["service description", createServiceSchema, { slug: "ok-slug", name: "S", description: "a\u0000b" }, "description"],
  ["service name", createServiceSchema, { slug: "ok-slug", name: "a\u0000b" }, "name"],
  ["experiment hypothesis", createExperimentSchema, { ...experiment, hypothesis: "x\u0000" }, "hypothesis"],
  [
    "optimization note",
    optimizationInputSchema,
    { name: "n", component: "c", savingMs: 1, costPct: 1, note: "\u0000" },
    "note",
  ],
  [
    "optimization source",
    optimizationInputSchema,
    { name: "n", component: "c", savingMs: 1, costPct: 1, source: "s\u0000" },
    "source",
  ],
  ["SLO name", sloInputSchema, { name: "a\u0000", source, thresholdMs: 700, objective: 0.99 }, "name"],
  [
    "label value",
    sloInputSchema,
    { name: "n", source: { ...source, matchers: { service: "a\u0000b" } }, thresholdMs: 700, objective: 0.99 },
    "source.matchers.service",
  ],
];

describe("text fields refuse what PostgreSQL cannot store faithfully", () => {
  it.each(cases)("a NUL in the %s names the field", (_what, schema, input, field) => {
    expect(errorsOf(schema, input)[field]).toMatch(/NUL|not allowed/);
  });

  it.each([
    [
      "service description",
      createServiceSchema,
      { slug: "ok-slug", name: "S", description: "caf\uD800" },
      "description",
    ],
    ["experiment hypothesis", createExperimentSchema, { ...experiment, hypothesis: "\uDC00x" }, "hypothesis"],
    [
      "optimization note",
      optimizationInputSchema,
      { name: "n", component: "c", savingMs: 1, costPct: 1, note: "\uD83D" },
      "note",
    ],
  ] as [string, z.ZodType, unknown, string][])(
    "a lone surrogate in the %s names the field",
    (_what, schema, input, field) => {
      expect(errorsOf(schema, input)[field]).toMatch(/not valid Unicode|not allowed/);
    },
  );

  it("refuses template delimiters in names, which travel into alert templates, but not in free text", () => {
    const stages = structuredClone(chatApi.stages);
    stages[0]!.components[0]!.name = 'Network {{ with query "count(up)" }}';
    expect(errorsOf(budgetDocumentSchema, { ...budget, stages })).toEqual({
      "stages.0.components.0.name": "Component name cannot contain {{ or }}",
    });
    expect(errorsOf(createServiceSchema, { slug: "ok-slug", name: "a }} b" })).toEqual({
      name: "Name cannot contain {{ or }}",
    });
    expect(
      errorsOf(createServiceSchema, { slug: "ok-slug", name: "a { b } c", description: "{{ fine here }}" }),
    ).toEqual({});
  });

  it("keeps real emoji and accents", () => {
    expect(errorsOf(createServiceSchema, { slug: "ok-slug", name: "Café 🚀", description: "naïve ✓ 🚀" })).toEqual({});
  });

  it("refuses __proto__ as a label name with the field named, like any reserved __ label", () => {
    const matchers = JSON.parse('{"__proto__": "x", "stage": "rag"}');
    const input = { ...budget, endToEndSource: { preset: "custom", metric: "m", matchers } };
    expect(errorsOf(budgetDocumentSchema, input)).toEqual({
      "endToEndSource.matchers.__proto__": "Label names starting with __ are reserved",
    });
  });
});
