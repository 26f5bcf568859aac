import "server-only";
import { NOT_ONE_LINE } from "@/lib/domain/plain-text";
import { stringifyYaml } from "@/lib/domain/yaml-text";
import { percentileKeyOf, type BudgetDocument, type MetricSource } from "@/lib/domain/budget";
import { formatMs, formatPercent } from "@/lib/domain/format";
import {
  ALERT_RULES,
  BURN_WINDOWS,
  WINDOW_SECONDS,
  budgetShare,
  burnRateFactor,
  type SloSpec,
  unreachableAlertsNote,
} from "@/lib/domain/slo";
import { kindOf, secondsExpr, unitOf } from "@/lib/domain/units";
import { assertDuration, bucketSelector, leftOpenRange, nativeQuery, selector } from "./promql";
import { checkRuleGroups } from "./rule-check";
import { goodRateExpr, promNumber, sliceGoodExpr, totalRateExpr, type CountedThreshold } from "./sli";
import { templateLabels, templateText as t } from "./template";

// Prometheus rules from budgets and SLOs, the way Sloth and Pyrra generate them: recording rules
// for the SLI's good and total rates over every burn window, multi-window multi-burn-rate alerts
// with the factors the SLO page shows, and, what they do not have, alerts per budgeted component.
// The output is deterministic (services by slug, SLOs by name, components in pipeline order), so
// the file can live in Git and a diff shows what a budget change did to alerting. Alert labels and
// annotations are Go templates to Prometheus: every piece of text people typed goes through
// templateText (./template.ts), so it is printed, never evaluated.

export const RULE_PREFIX = "latency_budgets";
export const BUDGET_RATE_WINDOW = "5m";

export type RuleSlo = Omit<SloSpec, "thresholdMode"> & {
  /** How the threshold is counted against the histogram's real buckets. */
  counted: CountedThreshold;
};

export type RuleService = { slug: string; name: string; budget: BudgetDocument | null; slos: RuleSlo[] };

export type RuleOptions = {
  /** The app's URL, for the dashboard links in annotations. */
  dashboardUrl: string;
  /** How long a component must stay over budget before its alert fires. */
  componentFor: string;
};

type RecordingRule = { record: string; expr: string; labels: Record<string, string> };
type AlertingRule = {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
};
export type RuleGroup = { name: string; rules: (RecordingRule | AlertingRule)[] };

export const recordName = {
  good: (window: string) => `${RULE_PREFIX}:slo_good:rate${window}`,
  total: (window: string) => `${RULE_PREFIX}:slo_total:rate${window}`,
  errorRatio: (window: string) => `${RULE_PREFIX}:slo_error_ratio:rate${window}`,
  sliceGood: `${RULE_PREFIX}:slo_slice_good`,
};

/** `name{service="…",slo="…"}`: a recorded series of one SLO. */
export function recordedSelector(name: string, slug: string, slo: string): string {
  return selector(name, { service: slug, slo });
}

/** The evaluation time as unix seconds, from inside an annotation template. */
const EVALUATION_TIME = '{{ with query "time()" }}{{ . | first | value | printf "%.0f" }}{{ end }}';

/** The app's URL without a trailing slash (URL parsing percent-encodes any brace); "" for relative links. */
function baseUrl(options: RuleOptions): string {
  if (!options.dashboardUrl) return "";
  return t(new URL(options.dashboardUrl).href.replace(/\/+$/, ""));
}

function waterfallLink(options: RuleOptions, slug: string, quantile: number): string {
  const p = percentileKeyOf(quantile) ?? "p95";
  return `${baseUrl(options)}/services/${encodeURIComponent(slug)}/waterfall?quantile=${p}&compare=1h&at=${EVALUATION_TIME}`;
}

function sloLink(options: RuleOptions, slug: string): string {
  return `${baseUrl(options)}/services/${encodeURIComponent(slug)}/slos?at=${EVALUATION_TIME}`;
}

function windowText(slo: RuleSlo): string {
  return slo.windowKind === "calendar"
    ? `calendar ${slo.calendarUnit} in ${t(slo.timeZone)} (alert factors use ${slo.windowDays} days)`
    : `${slo.windowDays}-day rolling window`;
}

function sloGroup(service: RuleService, slo: RuleSlo, options: RuleOptions): RuleGroup {
  const labels = { service: service.slug, slo: slo.name };
  const own = (name: string) => recordedSelector(name, service.slug, slo.name);
  const rules: RuleGroup["rules"] = [];
  const slices = slo.budgetingMethod === "timeslices" && slo.timesliceMinutes && slo.timesliceTarget;
  for (const window of BURN_WINDOWS) {
    rules.push({ record: recordName.good(window), expr: goodRateExpr(slo.source, slo.counted, window), labels });
    rules.push({ record: recordName.total(window), expr: totalRateExpr(slo.source, window), labels });
  }
  if (slices) {
    rules.push({
      record: recordName.sliceGood,
      expr: sliceGoodExpr(slo.source, slo.counted, slo.timesliceMinutes!, slo.timesliceTarget!),
      labels,
    });
  }
  for (const window of BURN_WINDOWS) {
    rules.push({
      record: recordName.errorRatio(window),
      // Occurrences: bad requests / all requests. Timeslices: the share of bad slices.
      expr: slices
        ? `1 - avg_over_time(${own(recordName.sliceGood)}[${leftOpenRange(WINDOW_SECONDS[window]!)}])`
        : `1 - ${own(recordName.good(window))} / ${own(recordName.total(window))}`,
      labels,
    });
  }
  const unit = slices ? `${slo.timesliceMinutes}-minute slices` : "requests";
  const meets = slices
    ? `whose p${promNumber(slo.timesliceTarget! * 100)} is at most ${formatMs(slo.thresholdMs)}`
    : `at most ${formatMs(slo.thresholdMs)}`;
  const windowSeconds = slo.windowDays * 86400;
  for (const rule of ALERT_RULES) {
    const factor = burnRateFactor(rule, windowSeconds);
    const limit = factor * (1 - slo.objective);
    // As the SLO page shows it (13.44×, 0.93×); the expression keeps the exact figure.
    const shown = String(Number(factor.toFixed(2)));
    rules.push({
      alert: "SLOErrorBudgetBurn",
      expr: `${own(recordName.errorRatio(rule.longWindow))} > ${promNumber(limit)} and ${own(recordName.errorRatio(rule.shortWindow))} > ${promNumber(limit)}`,
      labels: templateLabels({
        severity: rule.severity,
        ...labels,
        long_window: rule.longWindow,
        short_window: rule.shortWindow,
      }),
      annotations: {
        summary: `${t(service.name)}: SLO “${t(slo.name)}” is burning its error budget ${shown}× too fast (${rule.longWindow} and ${rule.shortWindow})`,
        description:
          `${formatPercent(slo.objective, 3)} of ${unit} must be ${meets} over a ${windowText(slo)}. ` +
          `Over the last ${rule.longWindow} {{ $value | humanizePercentage }} were not; at a burn rate of ` +
          `${shown} (error ratio above ${formatPercent(limit, 3)} over both ${rule.longWindow} and ${rule.shortWindow}) ` +
          `${Math.round(budgetShare(rule, windowSeconds) * 1000) / 10} % of the error budget is gone within ${rule.longWindow}. ${t(slo.counted.explanation)}`,
        dashboard: sloLink(options, service.slug),
        threshold_counting: slo.counted.mode,
        // An error ratio above 100 % never happens: the rule stays, so raising the objective arms it.
        ...(limit >= 1 ? { unreachable: unreachableAlertsNote(slo.objective, windowSeconds)! } : {}),
      },
    });
  }
  return { name: `${RULE_PREFIX}/${service.slug}/slo/${slo.name}`, rules };
}

/** The source's pXX in seconds, whatever its unit and kind, so thresholds and humanizeDuration read right. */
export function quantileExpr(source: MetricSource, quantile: number): string {
  const window = BUDGET_RATE_WINDOW;
  const expr =
    kindOf(source) === "native"
      ? `histogram_quantile(${promNumber(quantile)}, ${nativeQuery(source, "rate", window)})`
      : `histogram_quantile(${promNumber(quantile)}, sum by (le) (rate(${bucketSelector(source)}[${window}])))`;
  return secondsExpr(expr, unitOf(source));
}

function budgetGroup(service: RuleService, budget: BudgetDocument, options: RuleOptions): RuleGroup | null {
  const key = percentileKeyOf(budget.quantile);
  if (!key) return null;
  const quantile = promNumber(budget.quantile);
  const rules: AlertingRule[] = [];
  const link = waterfallLink(options, service.slug, budget.quantile);
  budget.stages.forEach((stage) => {
    for (const component of stage.components) {
      const budgetMs = component.budgetMs[key];
      if (!component.source || budgetMs === null) continue;
      rules.push({
        alert: "ComponentOverBudget",
        expr: `${quantileExpr(component.source, budget.quantile)} > ${promNumber(budgetMs / 1000)}`,
        for: options.componentFor,
        labels: templateLabels({
          severity: "ticket",
          service: service.slug,
          stage: stage.name,
          component: component.name,
          quantile,
        }),
        annotations: {
          summary: `${t(service.name)}: ${t(component.name)} ${key} is {{ $value | humanizeDuration }}, over its ${formatMs(budgetMs)} budget`,
          description:
            `${t(component.name)} (stage “${t(stage.name)}”) has had a ${key} over its ${formatMs(budgetMs)} budget for ${options.componentFor}: ` +
            `{{ $value | humanizeDuration }} over the last ${BUDGET_RATE_WINDOW}. The ${t(budget.indicator)} target is ${formatMs(budget.targetMs)} at ${key}. ` +
            `A percentile between bucket bounds is interpolated inside its bucket, as the waterfall does.`,
          dashboard: link,
        },
      });
    }
  });
  if (budget.endToEndSource) {
    rules.push({
      alert: "EndToEndOverTarget",
      expr: `${quantileExpr(budget.endToEndSource, budget.quantile)} > ${promNumber(budget.targetMs / 1000)}`,
      for: options.componentFor,
      labels: templateLabels({ severity: "ticket", service: service.slug, quantile }),
      annotations: {
        summary: `${t(service.name)}: ${t(budget.indicator)} ${key} is {{ $value | humanizeDuration }}, over its ${formatMs(budget.targetMs)} target`,
        description:
          `The measured end-to-end ${t(budget.indicator)} ${key} has been over ${formatMs(budget.targetMs)} for ${options.componentFor}: ` +
          `{{ $value | humanizeDuration }} over the last ${BUDGET_RATE_WINDOW}. The waterfall shows which component took the time.`,
        dashboard: link,
      },
    });
  }
  return rules.length ? { name: `${RULE_PREFIX}/${service.slug}/budget`, rules } : null;
}

/** A group kept out of the rule file: its service, its name and why (one line, no detail of the host). */
export type LeftOutGroup = { service: string; group: string; reason: string };

/** The groups that pass the checks, and those left out so that they never hold up the others. */
export type RuleSet = { groups: RuleGroup[]; leftOut: LeftOutGroup[] };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Every service's groups, each built and checked (checkRuleGroups) on its own: a group that cannot
 * be built or fails the checks is left out with the reason, and the others are kept. One service's
 * rules never keep another's from loading.
 */
export function buildRuleSet(services: readonly RuleService[], options: RuleOptions): RuleSet {
  assertDuration(options.componentFor);
  const groups: RuleGroup[] = [];
  const leftOut: LeftOutGroup[] = [];
  const names = new Set<string>();
  const add = (service: RuleService, name: string, build: () => RuleGroup | null) => {
    let group: RuleGroup | null;
    try {
      group = build();
    } catch (error) {
      leftOut.push({
        service: service.slug,
        group: name,
        reason: `its rules could not be written: ${messageOf(error)}`,
      });
      return;
    }
    if (!group) return;
    const problems = names.has(group.name) ? [`group ${group.name}: the name is used twice`] : checkRuleGroups([group]);
    if (problems.length)
      leftOut.push({ service: service.slug, group: group.name, reason: problems.slice(0, 3).join("; ") });
    else {
      names.add(group.name);
      groups.push(group);
    }
  };
  for (const service of [...services].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))) {
    for (const slo of [...service.slos].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
      add(service, `${RULE_PREFIX}/${service.slug}/slo/${slo.name}`, () => sloGroup(service, slo, options));
    const budget = service.budget;
    if (budget) add(service, `${RULE_PREFIX}/${service.slug}/budget`, () => budgetGroup(service, budget, options));
  }
  return { groups, leftOut };
}

/** The groups that pass the checks (buildRuleSet without the reasons). */
export function buildRuleGroups(services: readonly RuleService[], options: RuleOptions): RuleGroup[] {
  return buildRuleSet(services, options).groups;
}

export type RulesFormat = "prometheus" | "prometheusrule";

/** Text for a YAML comment: one line, no control characters, bounded. */
function commentText(text: string): string {
  const line = text.replace(new RegExp(`${NOT_ONE_LINE.source}+`, "g"), " ");
  return line.length > 500 ? `${line.slice(0, 499)}…` : line;
}

/**
 * The rule file, refused (a bug of ours, never the caller's) unless every rule passes
 * checkRuleGroups. Groups left out are named in comments at the top, with why.
 */
export function renderRules(
  groups: RuleGroup[],
  format: RulesFormat,
  name: string,
  leftOut: readonly LeftOutGroup[] = [],
): string {
  const problems = checkRuleGroups(groups);
  if (problems.length) throw new Error(`Refusing to write an unsafe rule file: ${problems.slice(0, 3).join("; ")}`);
  const header =
    "# Generated by Latency Budgets from its budgets and SLOs. Edit them in the app and download again;\n" +
    "# changes made here are lost on the next download.\n" +
    leftOut
      .map((g) => `# Left out: ${commentText(g.group)} (service ${commentText(g.service)}): ${commentText(g.reason)}\n`)
      .join("");
  const body =
    format === "prometheusrule"
      ? {
          apiVersion: "monitoring.coreos.com/v1",
          kind: "PrometheusRule",
          metadata: { name, labels: { "app.kubernetes.io/managed-by": "latency-budgets" } },
          spec: { groups },
        }
      : { groups };
  return header + stringifyYaml(body, { lineWidth: 0, sortMapEntries: false });
}
