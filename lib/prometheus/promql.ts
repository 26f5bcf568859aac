import "server-only";
import type { MetricSource } from "@/lib/domain/budget";

// PromQL is only ever built here, on the server, from stored metric sources. Names are checked
// against Prometheus's grammar and label values are written as escaped string literals, so a
// stored value can never change the shape of a query.

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const DURATION = /^[1-9][0-9]{0,5}(ms|s|m|h|d|w|y)$/;

export class PromQLBuildError extends Error {}

export function assertMetricName(name: string): string {
  if (!METRIC_NAME.test(name)) throw new PromQLBuildError(`Not a metric name: ${JSON.stringify(name)}`);
  return name;
}

export function assertLabelName(name: string): string {
  if (!LABEL_NAME.test(name)) throw new PromQLBuildError(`Not a label name: ${JSON.stringify(name)}`);
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

/** A PromQL double-quoted string literal (Go string escaping: backslash, quote, control characters). */
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
    else out += char;
  }
  return `${out}"`;
}

/** `metric{a="x",b="y"}` with equality matchers only, names validated, values escaped. */
export function selector(metric: string, matchers: Record<string, string>): string {
  const parts = Object.entries(matchers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${assertLabelName(name)}=${stringLiteral(value)}`);
  return `${assertMetricName(metric)}{${parts.join(",")}}`;
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
  const group = assertLabelName(options.groupLabel);
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
  const group = assertLabelName(groupLabel);
  const parts = windows.map(
    (window) =>
      `label_replace(sum by (le) (increase(${bucketSelector(source)}[${assertDuration(window)}])), ${stringLiteral(group)}, ${stringLiteral(window)}, "", "")`,
  );
  return `sum by (${group}, le) (${parts.join(" or ")})`;
}
