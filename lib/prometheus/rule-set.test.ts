import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { BudgetDocument, MetricSource } from "@/lib/domain/budget";
import { buildRuleSet, renderRules, type RuleService } from "./rules";

// One service's rules never hold up another's: each group is built and checked on its own, a
// group that fails is left out with why (a YAML comment in the file), and the rest is kept.

const options = { dashboardUrl: "http://lb.example", componentFor: "5m" };

function service(slug: string, source: MetricSource, endToEndSource: MetricSource | null = null): RuleService {
  const budget: BudgetDocument = {
    indicator: "TTFT",
    targetMs: 700,
    quantile: 0.95,
    endToEndSource,
    stages: [{ name: "Model", components: [{ name: "Decode", budgetMs: { p50: null, p95: 300, p99: null }, source }] }],
  };
  return { slug, name: slug, budget, slos: [] };
}

const classic: MetricSource = { preset: "custom", metric: "llm_stage_duration_seconds", matchers: { stage: "x" } };
const native = (metric: string): MetricSource => ({ preset: "custom", metric, matchers: {}, kind: "native" });

describe("buildRuleSet", () => {
  it("keeps services whose metrics are PromQL words, writing them {__name__=…}", () => {
    const set = buildRuleSet([service("kw", native("atan2"), native("inf")), service("ok", classic)], options);
    expect(set.leftOut).toEqual([]);
    expect(set.groups.map((g) => g.name)).toEqual(["latency_budgets/kw/budget", "latency_budgets/ok/budget"]);
    const exprs = set.groups[0]!.rules.map((r) => r.expr);
    expect(exprs[0]).toBe('histogram_quantile(0.95, sum(rate({__name__="atan2"}[5m]))) > 0.3');
    expect(exprs[1]).toBe('histogram_quantile(0.95, sum(rate({__name__="inf"}[5m]))) > 0.7');
  });

  it("leaves out only the group that cannot be written, says why, and keeps every other service's", () => {
    // Stored before names were checked: not a metric name PromQL can select.
    const legacy = service("legacy", { ...classic, metric: "http.server.duration" });
    const set = buildRuleSet([service("a", classic), legacy, service("z", classic)], options);
    expect(set.groups.map((g) => g.name)).toEqual(["latency_budgets/a/budget", "latency_budgets/z/budget"]);
    expect(set.leftOut).toEqual([
      {
        service: "legacy",
        group: "latency_budgets/legacy/budget",
        reason: 'its rules could not be written: Not a metric name: "http.server.duration_bucket"',
      },
    ]);
  });

  it("names a left-out group in a comment that no typed text can break out of", () => {
    const reason = 'bad\n- name: injected\n  rules: []\r\u2028# "quoted"';
    const text = renderRules(buildRuleSet([service("ok", classic)], options).groups, "prometheus", "x", [
      { service: "evil", group: "latency_budgets/evil/slo/a\nb", reason },
    ]);
    const lines = text.split("\n");
    const comment = lines.find((l) => l.startsWith("# Left out:"));
    expect(comment).toBe(
      '# Left out: latency_budgets/evil/slo/a b (service evil): bad - name: injected   rules: [] # "quoted"',
    );
    expect((parse(text) as { groups: { name: string }[] }).groups.map((g) => g.name)).toEqual([
      "latency_budgets/ok/budget",
    ]);
  });
});
