import "server-only";
import type { Db } from "@/lib/db/client";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { buildReport, type AlertRuleInForce, type BottleneckReport, type ExperimentOutcome } from "@/lib/domain/report";
import { reportMarkdown } from "@/lib/domain/report-markdown";
import { buildWaterfall } from "@/lib/domain/waterfall";
import { fetchBucketRates } from "@/lib/prometheus/buckets";
import { reportQuerySchema } from "@/lib/schemas/insights";
import { parseInput } from "@/lib/schemas/parse";
import type { LiveViewArgs } from "./runtime";
import { getAlerts } from "./alerts";
import { getBudgetForLiveView } from "./budgets";
import { getAnalysis, listExperiments } from "./experiments/experiments";
import { listOptimizations } from "./optimizations";
import { getRuleGroups } from "./rules";
import { getServiceOrThrow } from "./services";
import { sourcesOf } from "./waterfall";

// The bottleneck report for a service over a window, from live data: the waterfall at the
// budget's percentile and at p50/p95/p99, the optimization catalog, the service's decided
// experiments and the alert rules the app generates for it (with their state in Prometheus).

export type ReportView = BottleneckReport & {
  prometheus: "up" | "down" | "unconfigured";
  error: string | null;
};

const MAX_EXPERIMENTS = 5;

async function decidedExperiments(db: Db, slug: string): Promise<ExperimentOutcome[]> {
  const decided = (await listExperiments({ db }))
    .filter((x) => x.serviceSlug === slug && x.status === "decided")
    .sort((a, b) => (b.decidedAt ?? "").localeCompare(a.decidedAt ?? ""))
    .slice(0, MAX_EXPERIMENTS);
  return Promise.all(
    decided.map(async (x): Promise<ExperimentOutcome> => {
      const { analysis } = await getAnalysis({ db, id: x.id });
      const indicator = x.indicators[0];
      const [control, treatment] = analysis.variants;
      const pick = (v: typeof control) =>
        v?.indicators[indicator!]?.percentiles.find((p) => p.p === x.judgedPercentile);
      const before = pick(control);
      const after = pick(treatment);
      return {
        name: x.name,
        decision: x.decision ?? "decided",
        decidedAt: x.decidedAt,
        decidedBy: x.decidedBy,
        note: x.decisionNote,
        verdict: analysis.verdict.sentence,
        judged:
          before?.ok && after?.ok && indicator
            ? {
                label: `${indicator} p${Math.round(x.judgedPercentile * 100)}`,
                beforeMs: before.value,
                afterMs: after.value,
              }
            : null,
        costRelative: analysis.cost?.relative ?? null,
      };
    }),
  );
}

async function alertRulesInForce(
  db: Db,
  prom: CoalescingClient | null,
  slug: string,
): Promise<{ rules: AlertRuleInForce[]; loaded: boolean | null }> {
  const [groups, alerts] = await Promise.all([
    getRuleGroups({ db, prom, slug, dashboardUrl: "" }),
    getAlerts({ db, prom, query: { service: slug } }),
  ]);
  const rules = groups.flatMap((g) =>
    g.rules.flatMap((r) => {
      if (!("alert" in r)) return [];
      const active = alerts.alerts.filter(
        (a) => a.name === r.alert && Object.entries(r.labels).every(([k, v]) => a.labels[k] === v),
      );
      const state = active.some((a) => a.state === "firing") ? "firing" : active.length ? "pending" : "inactive";
      return [{ name: r.alert, labels: r.labels, for: r.for ?? "0s", state } satisfies AlertRuleInForce];
    }),
  );
  return { rules, loaded: prom && !alerts.error ? alerts.rulesLoaded : null };
}

export async function getReport({
  db,
  prom,
  slug,
  query,
  now = Date.now() / 1000,
}: LiveViewArgs): Promise<{ report: ReportView; format: "json" | "md"; markdown: string }> {
  const { window, format } = parseInput(reportQuerySchema, query, "The query");
  const service = await getServiceOrThrow({ db, slug });
  const budget = await getBudgetForLiveView({ db, slug });
  const at = prom ? prom.alignTime(now) : Math.floor(now);
  const sources = sourcesOf(budget);
  const fetched = prom && sources.length ? await fetchBucketRates(prom, sources, { window, time: at }) : null;
  const groups = fetched?.status === "success" ? fetched.groups : new Map();
  const error = !prom
    ? "Prometheus is not configured: set PROMETHEUS_URL for a report from live data."
    : fetched?.status === "error"
      ? `Prometheus query failed: ${fetched.error}`
      : null;
  const [catalog, experiments, rules] = await Promise.all([
    listOptimizations({ db }),
    decidedExperiments(db, slug),
    alertRulesInForce(db, prom, slug),
  ]);
  const model = (q: number) => buildWaterfall(budget, q, groups);
  const report: ReportView = {
    ...buildReport({
      service: { slug, name: service.name },
      indicator: budget.indicator,
      window,
      generatedAt: new Date(at * 1000).toISOString(),
      main: model(budget.quantile),
      byPercentile: { p50: model(0.5), p95: model(0.95), p99: model(0.99) },
      catalog,
      experiments,
      alertRules: rules.rules,
      rulesLoaded: rules.loaded,
    }),
    prometheus: !prom ? "unconfigured" : error ? "down" : "up",
    error,
  };
  return { report, format, markdown: format === "md" ? reportMarkdown(report) : "" };
}
