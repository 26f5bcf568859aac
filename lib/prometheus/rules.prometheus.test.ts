import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { buildRuleGroups, renderRules, type RuleService, type RuleSlo } from "./rules";
import { countThreshold } from "./sli";

// The generated rules, proven by Prometheus's own tool: `promtool check rules` for validity and
// `promtool test rules` for behaviour, with input series whose answers are worked out by hand.

const PROMTOOL = process.env.PROMTOOL_BIN ?? "/usr/bin/promtool";
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "lb-rules-"));

async function promtool(...args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(PROMTOOL, args, { cwd: dir });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

const TTFT = { preset: "generic", metric: "llm_request_ttft_seconds", matchers: { service: "chat" } };
const RAG = { preset: "generic", metric: "llm_stage_duration_seconds", matchers: { service: "chat", stage: "rag" } };

function slo(fields: Partial<RuleSlo> & Pick<RuleSlo, "name">, le = ["0.25", "0.5", "1", "+Inf"]): RuleSlo {
  const base = {
    indicator: "TTFT",
    source: TTFT,
    thresholdMs: 500,
    objective: 0.99,
    windowDays: 28,
    windowKind: "rolling" as const,
    calendarUnit: null,
    timeZone: "UTC",
    budgetingMethod: "occurrences" as const,
    timesliceMinutes: null,
    timesliceTarget: null,
    ...fields,
  };
  return { ...base, counted: countThreshold(base.thresholdMs, le, "snap"), ...fields };
}

const chat: RuleService = {
  slug: "chat",
  name: "Chat",
  budget: {
    indicator: "TTFT",
    targetMs: 700,
    quantile: 0.95,
    endToEndSource: TTFT,
    stages: [
      { name: "Gateway", components: [{ name: "Auth", budgetMs: { p50: null, p95: 30, p99: null }, source: null }] },
      {
        name: "Safety ∥ RAG",
        components: [
          { name: "RAG retrieval", budgetMs: { p50: null, p95: 150, p99: null }, source: RAG },
          { name: "Safety", budgetMs: { p50: null, p95: null, p99: null }, source: RAG },
        ],
      },
    ],
  },
  slos: [
    slo({ name: "TTFT under 500 ms" }),
    slo({
      name: "TTFT under 700 ms, interpolated",
      thresholdMs: 700,
      counted: countThreshold(700, ["0.25", "0.5", "1", "+Inf"], "interpolate"),
    }),
    slo({
      name: "Monthly slices",
      windowKind: "calendar",
      calendarUnit: "month",
      timeZone: "Europe/Berlin",
      windowDays: 30,
      budgetingMethod: "timeslices",
      timesliceMinutes: 5,
      timesliceTarget: 0.95,
    }),
  ],
};

const options = { dashboardUrl: "http://lb.example", componentFor: "5m" };

function writeRules(name: string, services: RuleService[] = [chat]): string {
  writeFileSync(join(dir, name), renderRules(buildRuleGroups(services, options), "prometheus", "test"));
  return name;
}

function writeTest(name: string, rules: string, tests: unknown[]): string {
  writeFileSync(join(dir, name), stringify({ rule_files: [rules], evaluation_interval: "1m", tests }));
  return name;
}

/** `a+bxn` series notation, in minutes. */
const flat = (perMinute: number, minutes: number) => `0+${perMinute}x${minutes}`;

describe("generated rules", () => {
  it("pass promtool check rules, as a file and as a PrometheusRule's groups", async () => {
    const check = await promtool("check", "rules", writeRules("all.yaml"));
    expect(check.output).toContain("SUCCESS");
    expect(check.ok).toBe(true);
    const wrapped = parse(renderRules(buildRuleGroups([chat], options), "prometheusrule", "latency-budgets")) as {
      apiVersion: string;
      kind: string;
      spec: unknown;
    };
    expect(wrapped).toMatchObject({ apiVersion: "monitoring.coreos.com/v1", kind: "PrometheusRule" });
    writeFileSync(join(dir, "spec.yaml"), stringify(wrapped.spec));
    expect((await promtool("check", "rules", "spec.yaml")).ok).toBe(true);
  });

  it("are byte-for-byte the same for the same input, whatever order it came in", () => {
    const shuffled = { ...chat, slos: [...chat.slos].reverse() };
    const a = renderRules(buildRuleGroups([chat, { ...chat, slug: "alpha", slos: [] }], options), "prometheus", "x");
    const b = renderRules(
      buildRuleGroups([{ ...chat, slug: "alpha", slos: [] }, shuffled], options),
      "prometheus",
      "x",
    );
    expect(a).toBe(b);
    const names = (parse(a) as { groups: { name: string }[] }).groups.map((g) => g.name);
    expect(names).toEqual([
      "latency_budgets/alpha/budget",
      "latency_budgets/chat/slo/Monthly slices",
      "latency_budgets/chat/slo/TTFT under 500 ms",
      "latency_budgets/chat/slo/TTFT under 700 ms, interpolated",
      "latency_budgets/chat/budget",
    ]);
  });

  it("page at the minute a 14.4× burn has spent 2 % of a 28-day budget, and stay silent at 1×", async () => {
    // Three quiet days (so the 1d and 3d windows are calm), then 14.4 % of requests over 500 ms:
    // 14.4× the 1 % budget. A 28-day SLO pages at 0.02 × 28 d / 1 h = 13.44×, so the 1-hour
    // error ratio 0.144 × x/60 passes 0.1344 at x = 56 minutes: silent at 55, paging at 57.
    const quiet = 3 * 24 * 60;
    const burning = (goodPerMinute: number) => [
      {
        series: 'llm_request_ttft_seconds_bucket{service="chat",le="0.5"}',
        values: `${flat(100, quiet)} ${quiet * 100 + goodPerMinute}+${goodPerMinute}x180`,
      },
      { series: 'llm_request_ttft_seconds_bucket{service="chat",le="+Inf"}', values: flat(100, quiet + 181) },
    ];
    const only = [slo({ name: "TTFT under 500 ms" })];
    const rules = writeRules("burn.yaml", [{ ...chat, budget: null, slos: only }]);
    const page = (minute: number) => ({
      exp_labels: {
        severity: "page",
        service: "chat",
        slo: "TTFT under 500 ms",
        long_window: "1h",
        short_window: "5m",
      },
      exp_annotations: {
        summary: "Chat: SLO “TTFT under 500 ms” is burning its error budget 13.44× too fast (1h and 5m)",
        description:
          "99.000 % of requests must be at most 500 ms over a 28-day rolling window. Over the last 1h " +
          `${minute === 57 ? "13.68%" : "14.4%"} were not; at a burn rate of 13.44 (error ratio above 13.440 % over both 1h and 5m) ` +
          "2 % of the error budget is gone within 1h. 500 ms is a bucket bound: counted exactly.",
        dashboard: `http://lb.example/services/chat/slos?at=${(quiet + minute) * 60}`,
        threshold_counting: "exact",
      },
    });
    const test = writeTest("burn.test.yaml", rules, [
      {
        interval: "1m",
        input_series: burning(85.6),
        alert_rule_test: [
          { eval_time: `${quiet + 55}m`, alertname: "SLOErrorBudgetBurn", exp_alerts: [] },
          { eval_time: `${quiet + 57}m`, alertname: "SLOErrorBudgetBurn", exp_alerts: [page(57)] },
          { eval_time: `${quiet + 120}m`, alertname: "SLOErrorBudgetBurn", exp_alerts: [page(120)] },
        ],
      },
      {
        interval: "1m",
        input_series: burning(99),
        alert_rule_test: [
          { eval_time: `${quiet + 60}m`, alertname: "SLOErrorBudgetBurn", exp_alerts: [] },
          { eval_time: `${quiet + 180}m`, alertname: "SLOErrorBudgetBurn", exp_alerts: [] },
        ],
      },
    ]);
    const result = await promtool("test", "rules", test);
    expect(result.output).toContain("SUCCESS");
    expect(result.ok).toBe(true);
  }, 60_000);

  it("page a 7-day SLO at Sloth's 13.44× (8 % of a week's budget in 1 h), not at the Workbook's 3.36×", async () => {
    // The same 14.4× burn as above on a 7-day SLO: 0.08 × 168 h / 1 h = 13.44×, so silent at 55
    // minutes and paging at 57. Scaling the 30-day table (2 % per hour) would page at 3.36×, i.e.
    // once the 1-hour error ratio passes 3.36 %: after 14 minutes.
    const quiet = 3 * 24 * 60;
    const series = [
      {
        series: 'llm_request_ttft_seconds_bucket{service="chat",le="0.5"}',
        values: `${flat(100, quiet)} ${quiet * 100 + 85.6}+85.6x180`,
      },
      { series: 'llm_request_ttft_seconds_bucket{service="chat",le="+Inf"}', values: flat(100, quiet + 181) },
    ];
    const week = [slo({ name: "Weekly TTFT", windowDays: 7 })];
    const rules = writeRules("week.yaml", [{ ...chat, budget: null, slos: week }]);
    const test = writeTest("week.test.yaml", rules, [
      {
        interval: "1m",
        input_series: series,
        promql_expr_test: [
          {
            expr: 'count(ALERTS{alertname="SLOErrorBudgetBurn",alertstate="firing",long_window="1h"})',
            eval_time: `${quiet + 30}m`,
            exp_samples: [],
          },
          {
            expr: 'count(ALERTS{alertname="SLOErrorBudgetBurn",alertstate="firing",long_window="1h"})',
            eval_time: `${quiet + 55}m`,
            exp_samples: [],
          },
          {
            expr: 'count(ALERTS{alertname="SLOErrorBudgetBurn",alertstate="firing",long_window="1h"})',
            eval_time: `${quiet + 57}m`,
            exp_samples: [{ labels: "{}", value: 1 }],
          },
        ],
      },
    ]);
    const result = await promtool("test", "rules", test);
    expect(result.output).toContain("SUCCESS");
    expect(result.ok).toBe(true);
    const alerts = (
      parse(readFileSync(join(dir, rules), "utf8")) as {
        groups: { rules: { alert?: string; expr: string; annotations?: Record<string, string> }[] }[];
      }
    ).groups
      .flatMap((g) => g.rules)
      .filter((r) => r.alert === "SLOErrorBudgetBurn");
    // 13.44, 3.5, 1.4 and 0.98 × the 1 % budget.
    expect(alerts.map((r) => r.expr.split(" > ")[1]!.split(" ")[0])).toEqual(["0.1344", "0.035", "0.014", "0.0098"]);
    expect(alerts.map((r) => r.annotations!.description!.match(/(\S+ %) of the error budget/)![1])).toEqual([
      "8 %",
      "12.5 %",
      "20 %",
      "42 %",
    ]);
  }, 60_000);

  it("say in the rules when an objective leaves an alert unable to fire", () => {
    // 92 % over 30 days: the 1 h/5 m page waits for 14.4 × 8 % = 115.2 % of requests to fail.
    const low = [slo({ name: "Loose", objective: 0.92, windowDays: 30 })];
    const rules = parse(
      readFileSync(join(dir, writeRules("low.yaml", [{ ...chat, budget: null, slos: low }])), "utf8"),
    ) as {
      groups: { rules: { alert?: string; labels?: Record<string, string>; annotations?: Record<string, string> }[] }[];
    };
    const alerts = rules.groups.flatMap((g) => g.rules).filter((r) => r.alert === "SLOErrorBudgetBurn");
    expect(alerts.map((r) => [r.labels!.long_window, r.annotations!.unreachable ?? null])).toEqual([
      [
        "1h",
        "At this objective the 1h/5m page alert can never fire: it waits for an error ratio of 100 % or more. " +
          "Every alert can fire from an objective of 93.06 %.",
      ],
      ["6h", null],
      ["1d", null],
      ["3d", null],
    ]);
  });

  it("fire ComponentOverBudget only after the component has been over budget for its `for`", async () => {
    // RAG answers in ≤ 100 ms until minute 10, then everything lands in (100 ms, 250 ms]. From the
    // first slow scrape the 5-minute p95 is above 150 ms (pending at 11m); with for: 5m it fires at
    // 16m. At 16m the whole window is slow: p95 = 0.1 + 0.15 × 0.95 = 242.5 ms.
    const rules = writeRules("component.yaml", [{ ...chat, slos: [] }]);
    const bucket = (le: string, values: string) => ({
      series: `llm_stage_duration_seconds_bucket{service="chat",stage="rag",le="${le}"}`,
      values,
    });
    const test = writeTest("component.test.yaml", rules, [
      {
        interval: "1m",
        input_series: [
          bucket("0.1", `${flat(60, 10)} 600x20`),
          bucket("0.25", flat(60, 30)),
          bucket("+Inf", flat(60, 30)),
          { series: 'llm_request_ttft_seconds_bucket{service="chat",le="0.5"}', values: flat(60, 30) },
          { series: 'llm_request_ttft_seconds_bucket{service="chat",le="+Inf"}', values: flat(60, 30) },
        ],
        alert_rule_test: [
          { eval_time: "15m", alertname: "ComponentOverBudget", exp_alerts: [] },
          {
            eval_time: "16m",
            alertname: "ComponentOverBudget",
            exp_alerts: [
              {
                exp_labels: {
                  severity: "ticket",
                  service: "chat",
                  stage: "Safety ∥ RAG",
                  component: "RAG retrieval",
                  quantile: "0.95",
                },
                exp_annotations: {
                  summary: "Chat: RAG retrieval p95 is 242.5ms, over its 150 ms budget",
                  description:
                    "RAG retrieval (stage “Safety ∥ RAG”) has had a p95 over its 150 ms budget for 5m: 242.5ms over the last 5m. " +
                    "The TTFT target is 700 ms at p95. A percentile between bucket bounds is interpolated inside its bucket, as the waterfall does.",
                  dashboard: "http://lb.example/services/chat/waterfall?quantile=p95&compare=1h&at=960",
                },
              },
            ],
          },
          // End to end stays at ≤ 500 ms, under the 700 ms target.
          { eval_time: "20m", alertname: "EndToEndOverTarget", exp_alerts: [] },
        ],
      },
    ]);
    const result = await promtool("test", "rules", test);
    expect(result.output).toContain("SUCCESS");
    expect(result.ok).toBe(true);
  }, 60_000);

  it("count a threshold between bounds the way the SLO page does: snapped or interpolated", async () => {
    // Rounded to 1e-6: promtool compares floats exactly and rate() leaves noise in the 15th digit.
    // 60/min ≤ 250 ms, 30/min more ≤ 500 ms, 10/min more ≤ 1 s. At 700 ms, interpolating between
    // 500 ms and 1 s counts 90 + 0.4 × 10 = 94 good per 100; the snapped 500 ms SLO counts 90.
    const rules = writeRules("threshold.yaml", [{ ...chat, budget: null }]);
    const series = (le: string, perMinute: number) => ({
      series: `llm_request_ttft_seconds_bucket{service="chat",le="${le}"}`,
      values: flat(perMinute, 30),
    });
    const test = writeTest("threshold.test.yaml", rules, [
      {
        interval: "1m",
        input_series: [series("0.25", 60), series("0.5", 90), series("1", 100), series("+Inf", 100)],
        promql_expr_test: [
          {
            expr: 'round(latency_budgets:slo_error_ratio:rate30m{slo="TTFT under 700 ms, interpolated"}, 0.000001)',
            eval_time: "30m",
            exp_samples: [{ labels: '{service="chat",slo="TTFT under 700 ms, interpolated"}', value: 0.06 }],
          },
          {
            expr: 'round(latency_budgets:slo_error_ratio:rate30m{slo="TTFT under 500 ms"}, 0.000001)',
            eval_time: "30m",
            exp_samples: [{ labels: '{service="chat",slo="TTFT under 500 ms"}', value: 0.1 }],
          },
          {
            // 90 % of each 5-minute slice is under 500 ms: below the slices' 95 % target, so every slice is bad.
            expr: 'round(latency_budgets:slo_error_ratio:rate30m{slo="Monthly slices"}, 0.000001)',
            eval_time: "30m",
            exp_samples: [{ labels: '{service="chat",slo="Monthly slices"}', value: 1 }],
          },
        ],
      },
    ]);
    const result = await promtool("test", "rules", test);
    expect(result.output).toContain("SUCCESS");
    expect(result.ok).toBe(true);
  }, 60_000);

  it("print names people typed as text, never as templates Prometheus evaluates", async () => {
    // Without escaping, Go's template engine would run the query (printing 42) and refuse the
    // file over "{{ broken"; promtool test rules expands labels and annotations as Prometheus does.
    const component = 'Network {{ with query "vector(42)" }}{{ . | first | value }}{{ end }}';
    const stage = "{{ broken";
    const serviceName = 'Chat "quoted" \\ back}}slash';
    const hostile: RuleService = {
      ...chat,
      name: serviceName,
      slos: [slo({ name: "{{ 1 }} SLO" })],
      budget: {
        ...chat.budget!,
        endToEndSource: null,
        stages: [
          { name: stage, components: [{ name: component, budgetMs: { p50: null, p95: 150, p99: null }, source: RAG }] },
        ],
      },
    };
    const rules = writeRules("hostile.yaml", [hostile]);
    expect((await promtool("check", "rules", rules)).ok).toBe(true);
    const bucket = (le: string, values: string) => ({
      series: `llm_stage_duration_seconds_bucket{service="chat",stage="rag",le="${le}"}`,
      values,
    });
    const test = writeTest("hostile.test.yaml", rules, [
      {
        interval: "1m",
        input_series: [bucket("0.1", "0x20"), bucket("0.25", flat(60, 20)), bucket("+Inf", flat(60, 20))],
        alert_rule_test: [
          {
            eval_time: "10m",
            alertname: "ComponentOverBudget",
            exp_alerts: [
              {
                exp_labels: { severity: "ticket", service: "chat", stage, component, quantile: "0.95" },
                exp_annotations: {
                  summary: `${serviceName}: ${component} p95 is 242.5ms, over its 150 ms budget`,
                  description:
                    `${component} (stage “${stage}”) has had a p95 over its 150 ms budget for 5m: 242.5ms over the last 5m. ` +
                    "The TTFT target is 700 ms at p95. A percentile between bucket bounds is interpolated inside its bucket, as the waterfall does.",
                  dashboard: "http://lb.example/services/chat/waterfall?quantile=p95&compare=1h&at=600",
                },
              },
            ],
          },
        ],
      },
    ]);
    const result = await promtool("test", "rules", test);
    expect(result.output).toContain("SUCCESS");
    expect(result.ok).toBe(true);
  }, 60_000);

  it("a rule file promtool refuses makes the check fail (the check can fail)", async () => {
    writeFileSync(
      join(dir, "broken.yaml"),
      "groups:\n  - name: x\n    rules:\n      - record: 'not a name'\n        expr: up\n",
    );
    expect((await promtool("check", "rules", "broken.yaml")).ok).toBe(false);
  });
});
