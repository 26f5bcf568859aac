import { describe, expect, it } from "vitest";
import { chatApiBudget } from "./budget.fixtures";
import type { Bucket } from "./histogram";
import { buildReport, rankRecommendations, recommendationScore, severityOf, type ReportInput } from "./report";
import { escapeMarkdown, reportMarkdown } from "./report-markdown";
import { buildWaterfall, componentKey, END_TO_END_KEY } from "./waterfall";

/** Buckets whose every percentile is `ms`: all observations in a bucket ending exactly there. */
const at = (ms: number): Bucket[] => [
  { upperBound: (ms - 0.001) / 1000, count: 0 },
  { upperBound: ms / 1000, count: 100 },
  { upperBound: Number.POSITIVE_INFINITY, count: 100 },
];

/** The chat-api seed budget measured at the given ms per component label (others at 75 % of budget). */
function measured(overrides: Record<string, number>, endToEndMs = 600) {
  const groups = new Map<string, Bucket[]>();
  chatApiBudget.stages.forEach((stage, s) =>
    stage.components.forEach((c, i) => groups.set(componentKey(s, i), at(overrides[c.name] ?? c.budgetMs.p95! * 0.75))),
  );
  groups.set(END_TO_END_KEY, at(endToEndMs));
  return groups;
}

const CATALOG = [
  { name: "Edge deployment", component: "Network", savingMs: 70, costPct: 30 },
  { name: "Prefix caching", component: "LLM first decode", savingMs: 25, costPct: -15 },
  { name: "Smaller models for simple queries", component: "LLM first decode", savingMs: 50, costPct: -90 },
  { name: "Faster safety model", component: "Safety check", savingMs: 40, costPct: 0 },
  { name: "GPU for the vector DB", component: "GPU", savingMs: 10, costPct: 5 },
];

function input(groups: Map<string, Bucket[]>): ReportInput {
  const model = (q: number) => buildWaterfall({ ...chatApiBudget, endToEndSource: null } as never, q, groups);
  return {
    service: { slug: "chat-api", name: "Chat API" },
    indicator: "TTFT",
    window: "1h",
    generatedAt: "2026-11-22T12:00:00.000Z",
    main: model(0.95),
    byPercentile: { p50: model(0.5), p95: model(0.95), p99: model(0.99) },
    catalog: CATALOG,
    experiments: [],
    alertRules: [],
    rulesLoaded: null,
  };
}

describe("severityOf", () => {
  it.each([
    // over budget by ≥ 10 % on the critical path
    [{ actualMs: 337, budgetMs: 150, share: 0.35, onCriticalPath: true }, "critical"],
    // the same overrun beside a slower parallel component delays nothing: moderate
    [{ actualMs: 337, budgetMs: 150, share: 0.35, onCriticalPath: false }, "moderate"],
    // a hair over (5 %): moderate
    [{ actualMs: 157.5, budgetMs: 150, share: 0.2, onCriticalPath: true }, "moderate"],
    // half the end-to-end time is critical whatever its budget (the seed's 98.8 % model_generate)
    [{ actualMs: 8400, budgetMs: null, share: 0.988, onCriticalPath: true }, "critical"],
    // a quarter of the time, or 90 % of the budget, is worth watching
    [{ actualMs: 120, budgetMs: 200, share: 0.26, onCriticalPath: true }, "moderate"],
    [{ actualMs: 27, budgetMs: 30, share: 0.05, onCriticalPath: true }, "moderate"],
    // the seed's 0.1 % API overhead
    [{ actualMs: 10, budgetMs: 30, share: 0.001, onCriticalPath: true }, "acceptable"],
  ] as const)("%j → %s", (component, expected) => {
    expect(severityOf(component)).toBe(expected);
  });
});

describe("buildReport", () => {
  it("names RAG retrieval the critical primary bottleneck during the RAG incident, with its share and overrun", () => {
    const report = buildReport(input(measured({ "RAG retrieval": 337.5 }, 720)));
    const primary = report.summary.primary!;
    expect(primary).toMatchObject({
      component: "RAG retrieval",
      stage: "Safety ∥ RAG",
      severity: "critical",
      onCriticalPath: true,
    });
    expect(primary.overBudgetMs).toBeCloseTo(337.5 - 120, 3); // its p95 budget is 120 ms
    expect(primary.shareOfEndToEnd).toBeCloseTo(primary.actualMs / report.summary.stackedMs, 12);
    expect(primary.shareOfEndToEnd).toBeCloseTo(337.5 / report.summary.stackedMs, 5);
    // Nothing else is critical; the safety check sits behind RAG.
    expect(report.bottlenecks.filter((b) => b.severity === "critical").map((b) => b.component)).toEqual([
      "RAG retrieval",
    ]);
    expect(report.bottlenecks.find((b) => b.component === "Safety check")!.onCriticalPath).toBe(false);
    expect(report.summary.withinTarget).toBe(false);
    expect(report.summary.text).toMatch(/^RAG retrieval \(Safety ∥ RAG\) is the primary bottleneck: 337\.5 ms at p95/);
    expect(report.endToEnd).toEqual({
      p50: expect.closeTo(720, 3),
      p95: expect.closeTo(720, 3),
      p99: expect.closeTo(720, 3),
    });
  });

  it("has no critical component on healthy traffic at 75 % of every budget", () => {
    const report = buildReport(input(measured({})));
    expect(report.bottlenecks.some((b) => b.severity === "critical")).toBe(false);
    expect(report.summary.withinTarget).toBe(true);
  });

  it("lists components without data apart, not as acceptable", () => {
    const groups = measured({});
    groups.delete(componentKey(0, 0));
    const report = buildReport(input(groups));
    expect(report.unmeasured).toEqual(["Network"]);
    expect(report.bottlenecks.map((b) => b.component)).not.toContain("Network");
  });
});

describe("rankRecommendations", () => {
  it("ranks by end-to-end gain per cost, and a saving beside a slower parallel component gains nothing", () => {
    const model = buildWaterfall(chatApiBudget, 0.95, measured({ "RAG retrieval": 337.5 }));
    const { recommendations, notApplicable } = rankRecommendations(CATALOG, model);
    const byName = Object.fromEntries(recommendations.map((r) => [r.name, r]));
    // 50 ms at −90 %: 50 / 0.1 = 500 per unit of cost; first.
    expect(recommendations[0]!.name).toBe("Smaller models for simple queries");
    expect(byName["Smaller models for simple queries"]!.score).toBeCloseTo(500, 6);
    expect(byName["Prefix caching"]!.score).toBeCloseTo(25 / 0.85, 6);
    expect(byName["Edge deployment"]!.score).toBeCloseTo(70 / 1.3, 6);
    // Safety (75 ms) runs beside RAG (337.5 ms): making it faster shortens nothing.
    expect(byName["Faster safety model"]!.endToEndGainMs).toBe(0);
    expect(byName["Faster safety model"]!.rank).toBe(recommendations.length);
    // Amdahl: 70 ms off the stack S → S / (S − 70).
    expect(byName["Edge deployment"]!.speedup).toBeCloseTo(model.stackedMs / (model.stackedMs - 70), 9);
    expect(notApplicable).toEqual([{ name: "GPU for the vector DB", reason: "no component called “GPU”" }]);
  });
});

describe("recommendationScore", () => {
  it("a free option (−100 %) scores 100 × its gain, not Infinity; one with no gain scores 0, not NaN", () => {
    expect(recommendationScore(50, -100)).toBe(5000);
    expect(recommendationScore(0, -100)).toBe(0);
    expect(recommendationScore(0, 20)).toBe(0);
    expect(recommendationScore(50, -90)).toBeCloseTo(500, 9);
  });

  it("ranks a −100 % option with no gain last, below any option that gains", () => {
    const model = buildWaterfall(chatApiBudget, 0.95, measured({ "RAG retrieval": 337.5 }));
    const catalog = [...CATALOG, { name: "Free and useless", component: "Safety check", savingMs: 40, costPct: -100 }];
    const { recommendations } = rankRecommendations(catalog, model);
    const useless = recommendations.find((r) => r.name === "Free and useless")!;
    expect(useless.score).toBe(0);
    expect(recommendations.every((r) => Number.isFinite(r.score))).toBe(true);
    expect(
      JSON.parse(JSON.stringify(recommendations)).every((r: { score: unknown }) => typeof r.score === "number"),
    ).toBe(true);
    expect(recommendations.filter((r) => r.endToEndGainMs > 0).every((r) => r.rank < useless.rank)).toBe(true);
  });
});

describe("reportMarkdown", () => {
  it("renders every section of the template with the live numbers", () => {
    const markdown = reportMarkdown(buildReport(input(measured({ "RAG retrieval": 337.5 }, 720))));
    for (const heading of [
      "# Latency bottleneck analysis: Chat API",
      "## Executive summary",
      "## 1. System pipeline",
      "## 2. Latency distribution",
      "## 3. Bottleneck analysis",
      "## 4. Recommendations",
      "## 5. Before / after (decided experiments)",
      "## 6. Alert rules in force",
    ])
      expect(markdown).toContain(heading);
    expect(markdown).toContain("### 🔴 Critical: RAG retrieval");
    expect(markdown).toContain("- 🔴 Major bottleneck: RAG retrieval");
    expect(markdown).toContain("| 1 | Smaller models for simple queries | LLM first decode | 50 ms |");
    expect(markdown).toContain("**Status**: ❌ over target");
  });

  it("escapes names so a pipe or emphasis in a name cannot break a table", () => {
    expect(escapeMarkdown("a | *b*\n_c_")).toBe("a \\| \\*b\\* \\_c\\_");
    const report = buildReport(input(measured({})));
    report.service.name = "Chat | API";
    expect(reportMarkdown(report)).toContain("# Latency bottleneck analysis: Chat \\| API");
  });
});
