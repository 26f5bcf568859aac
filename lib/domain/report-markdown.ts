import type { BottleneckReport, Severity } from "./report";

// The bottleneck report as Markdown to paste into a wiki page (Confluence, GitHub, Notion all
// read GitHub-flavoured tables). Every name a user typed is escaped, so a component called
// "a | b" or "*x*" cannot break a table or turn into formatting.

const MARK: Record<Severity, string> = {
  critical: "🔴 Critical",
  moderate: "🟡 Moderate",
  acceptable: "🟢 Acceptable",
};

/**
 * Escapes what can turn text into formatting anywhere in a line (emphasis, code, links, HTML,
 * table pipes); newlines become spaces. Dots, dashes and brackets stay readable in the source.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/([\\`*_[\]<>|~])/g, "\\$1");
}

const ms = (value: number | null, lowerBound = false) =>
  value === null ? "no data" : `${lowerBound ? "≥ " : ""}${value.toFixed(1)} ms`;
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
const signedPct = (value: number) => `${value > 0 ? "+" : value < 0 ? "−" : ""}${Math.abs(value).toFixed(0)} %`;

function table(headers: string[], rows: string[][]): string {
  return [
    `| ${headers.join(" | ")} |`,
    `| ${headers.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

export function reportMarkdown(report: BottleneckReport): string {
  const e = escapeMarkdown;
  const key = `p${Math.round(report.quantile * 100)}`;
  const { summary } = report;
  const lines: string[] = [];
  lines.push(`# Latency bottleneck analysis: ${e(report.service.name)}`, "");
  lines.push(
    `**Service**: ${e(report.service.slug)}  `,
    `**Window**: last ${e(report.window)}, ending ${report.generatedAt}  `,
    `**Target**: ${e(report.indicator)} ${key} < ${report.targetMs} ms  `,
    `**Status**: ${summary.withinTarget === null ? "no data" : summary.withinTarget ? "✅ within target" : "❌ over target"}`,
    "",
  );
  lines.push("## Executive summary", "", `> **TL;DR**: ${e(summary.text)}`, "");
  const bySeverity = (s: Severity) => report.bottlenecks.filter((b) => b.severity === s);
  lines.push("**Key findings**:");
  for (const b of bySeverity("critical"))
    lines.push(`- 🔴 Major bottleneck: ${e(b.component)} (${pct(b.shareOfEndToEnd)} of end to end)`);
  for (const b of bySeverity("moderate").slice(0, 3))
    lines.push(`- 🟡 Minor bottleneck: ${e(b.component)} (${pct(b.shareOfEndToEnd)} of end to end)`);
  const fine = bySeverity("acceptable");
  if (fine.length) lines.push(`- ✅ Within an acceptable range: ${fine.map((b) => e(b.component)).join(", ")}`);
  if (!report.bottlenecks.length) lines.push("- No component has data in this window.");
  lines.push("");
  lines.push("**Impact**:");
  const current = summary.measuredEndToEndMs ?? summary.stackedMs;
  lines.push(
    `- Current ${e(report.indicator)} ${key}: ${ms(current)} (${summary.measuredEndToEndMs !== null ? "measured end to end" : "stacked"}) → target < ${report.targetMs} ms ${summary.withinTarget ? "✅" : "❌"}`,
  );
  if (summary.estimatedImprovementPercent !== null)
    lines.push(
      `- Estimated improvement: ${summary.estimatedImprovementPercent.toFixed(1)} % with the top recommendation`,
    );
  lines.push("");

  lines.push("## 1. System pipeline", "");
  lines.push(
    table(
      ["Stage", "Components (∥ run in parallel)", `${key} budget`],
      report.pipeline.map((s) => [
        e(s.stage),
        s.components.map((c) => `${e(c.name)}${c.budgetMs === null ? "" : ` (${c.budgetMs} ms)`}`).join(" ∥ "),
        s.budgetMs === null ? "—" : `${s.budgetMs} ms`,
      ]),
    ),
    "",
  );

  lines.push("## 2. Latency distribution", "");
  lines.push(
    table(
      ["Stage", "Component", "p50", "p95", "p99", "p95 budget"],
      [
        ...report.distribution.map((d) => [
          e(d.stage),
          e(d.component),
          ms(d.p50),
          ms(d.p95),
          ms(d.p99),
          d.budgetP95 === null ? "—" : `${d.budgetP95} ms`,
        ]),
        [
          "**End to end (measured)**",
          "",
          ms(report.endToEnd.p50),
          ms(report.endToEnd.p95),
          ms(report.endToEnd.p99),
          "—",
        ],
      ],
    ),
    "",
    `Stacked ${key} (sum of stage ${key}s): ${ms(summary.stackedMs, summary.stackedIsLowerBound)}. Percentiles do not add: the measured end-to-end ${key} is usually lower than the stack.`,
    "",
  );

  lines.push("## 3. Bottleneck analysis", "");
  for (const b of report.bottlenecks) {
    lines.push(`### ${MARK[b.severity]}: ${e(b.component)} (${pct(b.shareOfEndToEnd)} of end to end)`, "");
    lines.push(
      `- Stage: ${e(b.stage)}${b.onCriticalPath ? " (on the critical path)" : " (hidden behind a slower parallel component)"}`,
      `- ${key}: ${ms(b.actualMs, b.isLowerBound)}${b.budgetMs === null ? " (no budget)" : ` against a ${b.budgetMs} ms budget`}`,
    );
    if (b.overBudgetMs !== null)
      lines.push(
        b.overBudgetMs > 0
          ? `- Over budget by ${b.overBudgetMs.toFixed(1)} ms`
          : `- Within budget, ${(-b.overBudgetMs).toFixed(1)} ms to spare`,
      );
    lines.push("");
  }
  if (report.unmeasured.length) lines.push(`Not measured in this window: ${report.unmeasured.map(e).join(", ")}.`, "");

  lines.push("## 4. Recommendations", "");
  if (report.recommendations.length)
    lines.push(
      table(
        ["Rank", "Change", "Component", "Saving", "End-to-end gain", "Speedup", "Cost"],
        report.recommendations.map((r) => [
          String(r.rank),
          e(r.name),
          e(r.component),
          `${r.savingMs} ms`,
          `${r.endToEndGainMs.toFixed(1)} ms`,
          `${r.speedup.toFixed(3)}×`,
          signedPct(r.costPct),
        ]),
      ),
      "",
      "Ranked by end-to-end gain per unit of cost (gain ÷ (1 + cost change)). A saving counts only as far as it shortens its stage: a component beside a slower parallel one gains nothing.",
      "",
    );
  else lines.push("The optimization catalog has nothing that applies to these components.", "");

  lines.push("## 5. Before / after (decided experiments)", "");
  if (report.experiments.length)
    lines.push(
      table(
        ["Experiment", "Decision", "Before", "After", "Cost", "Verdict"],
        report.experiments.map((x) => [
          e(x.name),
          `${e(x.decision)}${x.decidedBy ? ` by ${e(x.decidedBy)}` : ""}`,
          x.judged ? `${e(x.judged.label)} ${ms(x.judged.beforeMs)}` : "—",
          x.judged ? ms(x.judged.afterMs) : "—",
          x.costRelative === null ? "—" : signedPct(x.costRelative * 100),
          e(x.verdict),
        ]),
      ),
      "",
    );
  else lines.push("No decided experiments for this service yet.", "");

  lines.push("## 6. Alert rules in force", "");
  if (report.alertRules.length)
    lines.push(
      table(
        ["Alert", "Labels", "For", "State"],
        report.alertRules.map((r) => [
          e(r.name),
          Object.entries(r.labels)
            .map(([k, v]) => `${e(k)}=${e(v)}`)
            .join(", "),
          r.for,
          r.state,
        ]),
      ),
      "",
      report.rulesLoaded === false
        ? "Prometheus has not loaded these rules: they are what the app generates, not what is evaluated."
        : report.rulesLoaded
          ? "Prometheus has these rules loaded."
          : "Prometheus is not reachable: these are the generated rules.",
      "",
    );
  else lines.push("No alert rules: add an SLO or budgets with sources to get them.", "");
  return lines.join("\n");
}
