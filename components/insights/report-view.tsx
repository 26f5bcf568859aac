"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { CELL, DataTable, ROW } from "@/components/ui/data-table";
import { Badge, Button, Card } from "@/components/ui/primitives";
import type { Severity } from "@/lib/domain/report";
import { queries, urls } from "@/lib/queries/resources";
import type { ReportView as View } from "@/lib/services/report";
import { LiveBanner } from "./live-banner";
import { useViewUrl } from "./use-view-url";
import { WindowSelect } from "./window-select";

const TONE: Record<Severity, "bad" | "warn" | "good"> = { critical: "bad", moderate: "warn", acceptable: "good" };
const ms = (value: number | null, lowerBound = false) =>
  value === null ? "no data" : `${lowerBound ? "≥ " : ""}${value.toFixed(1)} ms`;
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card className="space-y-2 break-inside-avoid print:border-0 print:shadow-none">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </Card>
  );
}

export function ReportView({ slug, window, initial }: { slug: string; window: string; initial: View }) {
  const setUrl = useViewUrl();
  const [copied, setCopied] = useState(false);
  const { data: report } = useQuery({
    ...queries.report(slug, window),
    initialData: initial.window === window ? initial : undefined,
    placeholderData: keepPreviousData,
  });
  if (!report) return <p className="text-sm text-slate-500">Building the report…</p>;
  const key = `p${Math.round(report.quantile * 100)}`;
  const { summary } = report;

  async function copyMarkdown() {
    const response = await fetch(urls.report(slug, window, "md"));
    await navigator.clipboard?.writeText(await response.text()).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }

  return (
    <article className="space-y-4" aria-label="Bottleneck report">
      <div className="flex flex-wrap items-center gap-3 print:hidden">
        <WindowSelect value={window} onChange={(w) => setUrl({ window: w })} />
        <a
          className="text-sm text-sky-700 underline dark:text-sky-400"
          href={urls.report(slug, window, "md")}
          download={`${slug}-bottleneck-report.md`}
        >
          Download Markdown
        </a>
        <Button type="button" onClick={() => void copyMarkdown()}>
          {copied ? "Copied" : "Copy Markdown"}
        </Button>
        <Button type="button" onClick={printPage}>
          Print
        </Button>
        <a className="text-sm text-sky-700 underline dark:text-sky-400" href={urls.report(slug, window)}>
          JSON
        </a>
      </div>
      <LiveBanner error={report.error} />
      <header>
        <h1 className="text-xl font-semibold">Latency bottleneck analysis: {report.service.name}</h1>
        <p className="text-sm text-slate-500">
          Last {report.window}, ending {new Date(report.generatedAt).toLocaleString()} · target {report.indicator} {key}{" "}
          &lt; {report.targetMs} ms ·{" "}
          <span data-testid="report-status">
            {summary.withinTarget === null ? "no data" : summary.withinTarget ? "within target" : "over target"}
          </span>
        </p>
      </header>
      <Section title="Executive summary">
        <p data-testid="report-summary">{summary.text}</p>
        {summary.primary && (
          <p className="text-sm">
            Primary bottleneck: <strong data-testid="primary-bottleneck">{summary.primary.component}</strong>{" "}
            <Badge tone={TONE[summary.primary.severity]}>{summary.primary.severity}</Badge>,{" "}
            {pct(summary.primary.shareOfEndToEnd)} of the stacked time.
            {summary.estimatedImprovementPercent !== null &&
              ` The top recommendation would take ${summary.estimatedImprovementPercent.toFixed(1)} % off it.`}
          </p>
        )}
      </Section>
      <Section title="1. System pipeline">
        <ol className="flex flex-wrap items-center gap-2 text-sm">
          {report.pipeline.map((stage, i) => (
            <li key={`${stage.stage}-${i}`} className="rounded border border-slate-300 px-2 py-1 dark:border-slate-700">
              <span className="font-medium">{stage.stage}</span>{" "}
              <span className="text-slate-500">{stage.budgetMs === null ? "" : `${stage.budgetMs} ms`}</span>
              {stage.components.length > 1 && (
                <span className="block text-xs text-slate-500">{stage.components.map((c) => c.name).join(" ∥ ")}</span>
              )}
            </li>
          ))}
        </ol>
      </Section>
      <Section title="2. Latency distribution">
        <DataTable label="Latency distribution" columns={["Stage", "Component", "p50", "p95", "p99", "p95 budget"]}>
          {report.distribution.map((d, i) => (
            <tr key={i} className={ROW}>
              <td className={CELL}>{d.stage}</td>
              <td className={CELL}>{d.component}</td>
              <td className={CELL}>{ms(d.p50)}</td>
              <td className={CELL}>{ms(d.p95)}</td>
              <td className={CELL}>{ms(d.p99)}</td>
              <td className={CELL}>{d.budgetP95 === null ? "—" : `${d.budgetP95} ms`}</td>
            </tr>
          ))}
          <tr className={`${ROW} font-medium`}>
            <td className={CELL} colSpan={2}>
              End to end (measured)
            </td>
            <td className={CELL}>{ms(report.endToEnd.p50)}</td>
            <td className={CELL}>{ms(report.endToEnd.p95)}</td>
            <td className={CELL}>{ms(report.endToEnd.p99)}</td>
            <td className={CELL}>—</td>
          </tr>
        </DataTable>
        <p className="text-xs text-slate-500">
          Stacked {key}: {ms(summary.stackedMs, summary.stackedIsLowerBound)}. Percentiles do not add: the measured
          end-to-end {key} is usually below the stack.
        </p>
      </Section>
      <Section title="3. Bottleneck analysis">
        <DataTable
          label="Bottlenecks"
          columns={["Severity", "Component", "Stage", key, "Budget", "Over budget", "Share"]}
        >
          {report.bottlenecks.map((b) => (
            <tr key={`${b.stage}/${b.component}`} className={ROW} data-testid={`bottleneck-${b.component}`}>
              <td className={CELL}>
                <Badge tone={TONE[b.severity]}>{b.severity}</Badge>
              </td>
              <td className={CELL}>
                {b.component}
                {!b.onCriticalPath && (
                  <span className="block text-xs text-slate-500">behind a slower parallel component</span>
                )}
              </td>
              <td className={CELL}>{b.stage}</td>
              <td className={CELL}>{ms(b.actualMs, b.isLowerBound)}</td>
              <td className={CELL}>{b.budgetMs === null ? "—" : `${b.budgetMs} ms`}</td>
              <td className={CELL}>
                {b.overBudgetMs === null ? "—" : b.overBudgetMs > 0 ? `+${b.overBudgetMs.toFixed(1)} ms` : "within"}
              </td>
              <td className={CELL}>{pct(b.shareOfEndToEnd)}</td>
            </tr>
          ))}
        </DataTable>
        {report.unmeasured.length > 0 && (
          <p className="text-sm text-slate-500">Not measured in this window: {report.unmeasured.join(", ")}.</p>
        )}
      </Section>
      <Section title="4. Recommendations">
        {report.recommendations.length ? (
          <DataTable
            label="Recommendations"
            columns={["Rank", "Change", "Component", "Saving", "End-to-end gain", "Speedup", "Cost"]}
          >
            {report.recommendations.map((r) => (
              <tr key={r.name} className={ROW}>
                <td className={CELL}>{r.rank}</td>
                <td className={CELL}>{r.name}</td>
                <td className={CELL}>{r.component}</td>
                <td className={CELL}>{r.savingMs} ms</td>
                <td className={CELL}>{r.endToEndGainMs.toFixed(1)} ms</td>
                <td className={CELL}>{r.speedup.toFixed(3)}×</td>
                <td className={CELL}>
                  {r.costPct > 0 ? "+" : r.costPct < 0 ? "−" : ""}
                  {Math.abs(r.costPct)} %
                </td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <p className="text-sm text-slate-500">
            The optimization catalog has nothing that applies to these components.
          </p>
        )}
        <p className="text-xs text-slate-500">
          Ranked by end-to-end gain per unit of cost (gain ÷ (1 + cost change)); a saving counts only as far as it
          shortens its stage.
        </p>
      </Section>
      <Section title="5. Before / after (decided experiments)">
        {report.experiments.length ? (
          <DataTable label="Decided experiments" columns={["Experiment", "Decision", "Before", "After", "Verdict"]}>
            {report.experiments.map((x) => (
              <tr key={x.name} className={ROW}>
                <td className={CELL}>{x.name}</td>
                <td className={CELL}>{x.decision}</td>
                <td className={CELL}>{x.judged ? `${x.judged.label} ${ms(x.judged.beforeMs)}` : "—"}</td>
                <td className={CELL}>{x.judged ? ms(x.judged.afterMs) : "—"}</td>
                <td className={CELL}>{x.verdict}</td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <p className="text-sm text-slate-500">No decided experiments for this service yet.</p>
        )}
      </Section>
      <Section title="6. Alert rules in force">
        {report.alertRules.length ? (
          <DataTable label="Alert rules" columns={["Alert", "Labels", "For", "State"]}>
            {report.alertRules.map((r, i) => (
              <tr key={i} className={ROW}>
                <td className={CELL}>{r.name}</td>
                <td className={`${CELL} text-xs`}>
                  {Object.entries(r.labels)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(", ")}
                </td>
                <td className={CELL}>{r.for}</td>
                <td className={CELL}>
                  <Badge tone={r.state === "firing" ? "bad" : r.state === "pending" ? "warn" : "neutral"}>
                    {r.state}
                  </Badge>
                </td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <p className="text-sm text-slate-500">No alert rules: add an SLO or budgets with sources to get them.</p>
        )}
      </Section>
    </article>
  );
}

/** Module scope: inside the view, `window` is the report window ("1h"), not the browser's. */
function printPage() {
  window.print();
}
