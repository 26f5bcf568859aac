import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { BudgetDocument, MetricSource } from "@/lib/domain/budget";
import { buildRuleSet, renderRules, type RuleService, type RuleSlo } from "./rules";
import { countThreshold } from "./sli";

// Names and label values stored before the boundary refused line separators and controls (or
// typed anywhere the app does not check) must never break the rule file: every service's alerts
// are in it. YAML and Go read U+0085, U+2028 and U+2029 as line breaks and refuse other C1
// controls; the file writes them as escapes, and PromQL string literals as \uXXXX.

const BREAKING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const options = { dashboardUrl: "http://lb.example", componentFor: "5m" };

function service(names: { service: string; component: string; slo: string; value: string }): RuleService {
  const source: MetricSource = {
    preset: "custom",
    metric: "llm_stage_duration_seconds",
    matchers: { stage: names.value },
  };
  const budget: BudgetDocument = {
    indicator: names.component,
    targetMs: 700,
    quantile: 0.95,
    endToEndSource: null,
    stages: [
      {
        name: names.component,
        components: [{ name: names.component, budgetMs: { p50: null, p95: 300, p99: null }, source }],
      },
    ],
  };
  const slo: RuleSlo = {
    name: names.slo,
    indicator: names.component,
    source,
    thresholdMs: 700,
    objective: 0.99,
    windowDays: 28,
    windowKind: "rolling",
    calendarUnit: null,
    timeZone: "UTC",
    budgetingMethod: "occurrences",
    timesliceMinutes: null,
    timesliceTarget: null,
    counted: countThreshold(700, ["0.5", "1", "+Inf"], "snap"),
  };
  return { slug: "svc", name: names.service, budget, slos: [slo] };
}

function render(names: Parameters<typeof service>[0]) {
  const set = buildRuleSet([service(names)], options);
  return {
    set,
    text: renderRules(set.groups, "prometheus", "x"),
    rule: renderRules(set.groups, "prometheusrule", "x"),
  };
}

describe("rule files with line separators and controls in stored text", () => {
  it("writes U+2028, U+0085 and other C1 controls as escapes, in YAML and in PromQL", () => {
    const { set, text, rule } = render({
      service: "Fast\u2028answers",
      component: "De\u0085code",
      slo: "p\u2029ara\u009b",
      value: "x\u0085y",
    });
    expect(set.leftOut).toEqual([]);
    for (const file of [text, rule]) expect(file).not.toMatch(BREAKING);
    // PromQL: \u0085 is the rune U+0085 to Go's unquoting (\x85 would be a byte), and stays one
    // after YAML's own unescaping.
    const exprs = set.groups.flatMap((g) => g.rules.map((r) => r.expr));
    expect(exprs.some((e) => e.includes('stage="x\\u0085y"'))).toBe(true);
    expect(exprs.some((e) => e.includes('slo="p\\u2029ara\\u009b"'))).toBe(true);
    expect(text).toContain('stage="x\\u0085y"');
    expect((parse(text) as { groups: unknown }).groups).toEqual(set.groups);
    expect((parse(rule) as { spec: { groups: unknown } }).spec.groups).toEqual(set.groups);
  });

  it("reads back exactly the groups it wrote, whatever the names and label values, with no raw line break", () => {
    // Any code point, with the ones YAML and Go read differently far more often than chance.
    const unit = fc.oneof(
      fc.constantFrom(
        "\u0085",
        "\u2028",
        "\u2029",
        "\u0080",
        "\u009f",
        "\ufeff",
        "\uffff",
        "\t",
        "\n",
        "\r",
        "\u001b",
        '"',
        "\\",
      ),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    );
    const name = fc
      .string({ unit, minLength: 1, maxLength: 16 })
      .filter((s) => s.trim() !== "" && !s.includes("{") && !s.includes("}"));
    fc.assert(
      fc.property(name, name, name, fc.string({ unit, maxLength: 16 }), (svc, component, slo, value) => {
        const { set, text, rule } = render({ service: svc, component, slo, value });
        expect(set.leftOut).toEqual([]);
        expect(text).not.toMatch(BREAKING);
        expect(rule).not.toMatch(BREAKING);
        expect((parse(text) as { groups: unknown }).groups).toEqual(set.groups);
        expect((parse(rule) as { spec: { groups: unknown } }).spec.groups).toEqual(set.groups);
        const sloGroup = set.groups.find((g) => g.name.includes("/slo/"))!;
        expect(sloGroup.rules[0]!.labels.slo).toBe(slo);
      }),
      { numRuns: 100 },
    );
  }, 30_000);
});
