import "server-only";
import { parser } from "@prometheus-io/lezer-promql";
import type { MetricSource } from "@/lib/domain/budget";
import { NOT_ONE_LINE } from "@/lib/domain/plain-text";

// PromQL is only ever built here, on the server, from stored metric sources. Names are checked
// against Prometheus's grammar and label values are written as escaped string literals, so a
// stored value can never change the shape of a query.

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const DURATION = /^[1-9][0-9]{0,5}(ms|s|m|h|d|w|y)$/;

export class PromQLBuildError extends Error {}

/** A classic Prometheus metric name (letters, digits, _ and :), the only names the app stores. */
export const isMetricName = (name: string): boolean => METRIC_NAME.test(name);

export function assertMetricName(name: string): string {
  if (!METRIC_NAME.test(name)) throw new PromQLBuildError(`Not a metric name: ${JSON.stringify(name)}`);
  return name;
}

export function assertLabelName(name: string): string {
  if (!LABEL_NAME.test(name)) throw new PromQLBuildError(`Not a label name: ${JSON.stringify(name)}`);
  return name;
}

// Words Prometheus's own lexer (Go, promql/parser/lex.go) reads as something other than a name,
// whatever their case: operators, aggregations, modifiers, the numbers inf and nan, and the words
// newer versions add. Some of them lezer-promql reads as a metric (atan2) while Prometheus does
// not, and the reverse (offset), so a name is written bare only when neither reads it otherwise.
const PROMQL_WORDS = new Set([
  ...["and", "or", "unless", "atan2"],
  ...["sum", "avg", "count", "min", "max", "group", "stddev", "stdvar", "topk", "bottomk", "count_values"],
  ...["quantile", "limitk", "limit_ratio"],
  ...["offset", "by", "without", "on", "ignoring", "group_left", "group_right", "bool", "start", "end"],
  ...["step", "range", "smoothed", "anchored", "fill", "fill_left", "fill_right", "inf", "nan"],
]);

const readsAsMetric = new Map<string, boolean>();

/** Whether lezer-promql, Prometheus's grammar, reads `name{}` as a selector of the metric `name`. */
function grammarReadsAsMetric(name: string): boolean {
  const known = readsAsMetric.get(name);
  if (known !== undefined) return known;
  const text = `${name}{}`;
  let ok = true;
  let identifier: string | null = null;
  parser.parse(text).iterate({
    enter(node) {
      if (node.type.isError) ok = false;
      if (node.name === "Identifier" && node.node.parent?.name === "VectorSelector")
        identifier ??= text.slice(node.from, node.to);
      return ok;
    },
  });
  if (readsAsMetric.size >= 2000) readsAsMetric.clear();
  readsAsMetric.set(name, ok && identifier === name);
  return ok && identifier === name;
}

/**
 * Whether `name` can be written bare (`name{…}`): a classic metric name that both Prometheus's
 * lexer and lezer-promql read as a metric. Any other legal name is written `{__name__="…"}`.
 */
export function isBareMetricName(name: string): boolean {
  return METRIC_NAME.test(name) && !PROMQL_WORDS.has(name.toLowerCase()) && grammarReadsAsMetric(name);
}

/** A label name in `by (…)`: inf and nan are numbers there to Prometheus. */
export function assertGroupingLabel(name: string): string {
  assertLabelName(name);
  if (name.toLowerCase() === "inf" || name.toLowerCase() === "nan")
    throw new PromQLBuildError(`Not a grouping label: ${JSON.stringify(name)}`);
  return name;
}

export function assertDuration(duration: string): string {
  if (!DURATION.test(duration)) throw new PromQLBuildError(`Not a duration: ${JSON.stringify(duration)}`);
  return duration;
}

/**
 * A range of `seconds` that holds the same samples on Prometheus 2.x, whose ranges are closed on
 * the left ([1h:5m] holds 13 subquery steps), and on 3.x, whose ranges are open there (12).
 */
export function leftOpenRange(seconds: number): string {
  return `${Math.round(seconds) - 1}s`;
}

/** A PromQL double-quoted string literal (Go string escaping: backslash, quote, control characters, line breaks). */
export function stringLiteral(value: string): string {
  if (LONE_SURROGATE.test(value)) throw new PromQLBuildError("Label value is not valid Unicode");
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === "\\") out += "\\\\";
    else if (char === '"') out += '\\"';
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    // C1 controls, U+2028/U+2029, U+FEFF, U+FFFE/U+FFFF as \uXXXX (a rune to Go's unquoting; \x80
    // would be a byte): written raw, a YAML reader between here and Prometheus turns U+0085 into a
    // space or a line break, or refuses the file.
    else if (NOT_ONE_LINE.test(char)) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * `metric{a="x",b="y"}` with equality matchers only, names validated, values escaped: the one
 * way the app writes a metric into PromQL. A legal metric name that PromQL would read as
 * something else (`atan2`, `inf`, `offset`, `on`…) is written `{__name__="atan2",a="x"}`.
 */
export function selector(metric: string, matchers: Record<string, string>): string {
  assertMetricName(metric);
  if ("__name__" in matchers) throw new PromQLBuildError("The metric is named by its own argument, not __name__");
  const parts = Object.entries(matchers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${assertLabelName(name)}=${stringLiteral(value)}`);
  if (isBareMetricName(metric)) return `${metric}{${parts.join(",")}}`;
  return `{${[`__name__=${stringLiteral(metric)}`, ...parts].join(",")}}`;
}

export function bucketSelector(source: Pick<MetricSource, "metric" | "matchers">): string {
  return selector(`${source.metric}_bucket`, source.matchers);
}

/** A native histogram's series: the metric's own name, no `_bucket`. */
export function nativeSelector(source: Pick<MetricSource, "metric" | "matchers">): string {
  return selector(source.metric, source.matchers);
}

/** One native histogram's rate (or increase) over `window`, summed into one histogram. */
export function nativeQuery(
  source: Pick<MetricSource, "metric" | "matchers">,
  fn: "rate" | "increase",
  window: string,
): string {
  return `sum(${fn}(${nativeSelector(source)}[${assertDuration(window)}]))`;
}

/**
 * Bucket rates of several histograms in ONE query: each source's buckets summed by `le` and
 * tagged with `groupLabel="<key>"`, so the answer is grouped by (groupLabel, le).
 */
export function taggedBucketQuery(
  sources: { key: string; source: Pick<MetricSource, "metric" | "matchers"> }[],
  options: { fn: "rate" | "increase"; window: string; groupLabel: string },
): string {
  const group = assertGroupingLabel(options.groupLabel);
  const window = assertDuration(options.window);
  const parts = sources.map(
    ({ key, source }) =>
      `label_replace(sum by (le) (${options.fn}(${bucketSelector(source)}[${window}])), ${stringLiteral(group)}, ${stringLiteral(key)}, "", "")`,
  );
  return `sum by (${group}, le) (${parts.join(" or ")})`;
}

/** The same histogram over several windows in one query, tagged by window. */
export function windowedBucketQuery(
  source: Pick<MetricSource, "metric" | "matchers">,
  windows: readonly string[],
  groupLabel: string,
): string {
  const group = assertGroupingLabel(groupLabel);
  const parts = windows.map(
    (window) =>
      `label_replace(sum by (le) (increase(${bucketSelector(source)}[${assertDuration(window)}])), ${stringLiteral(group)}, ${stringLiteral(window)}, "", "")`,
  );
  return `sum by (${group}, le) (${parts.join(" or ")})`;
}
