import "server-only";
import type { MetricSource } from "@/lib/domain/budget";
import { parseLe, type Bucket } from "@/lib/domain/histogram";
import type { PrometheusClient, QueryResult } from "./client";
import { bucketSelector, taggedBucketQuery, windowedBucketQuery } from "./promql";

// Histogram buckets of many sources, or of one source over many windows, in one query each.

export const GROUP_LABEL = "lb_group";

export type BucketGroups = { status: "success"; groups: Map<string, Bucket[]>; warnings: string[]; query: string };
export type BucketFailure = { status: "error"; errorType: string; error: string; query: string };

function group(result: QueryResult & { status: "success" }, query: string): BucketGroups {
  const groups = new Map<string, Bucket[]>();
  for (const sample of result.samples) {
    const key = sample.metric[GROUP_LABEL];
    const le = sample.metric.le;
    if (key === undefined || le === undefined || Number.isNaN(sample.value)) continue;
    const list = groups.get(key) ?? [];
    list.push({ upperBound: parseLe(le), count: sample.value });
    groups.set(key, list);
  }
  return { status: "success", groups, warnings: result.warnings, query };
}

export async function fetchBucketRates(
  client: PrometheusClient,
  sources: { key: string; source: Pick<MetricSource, "metric" | "matchers"> }[],
  options: { window: string; time: number },
): Promise<BucketGroups | BucketFailure> {
  const query = taggedBucketQuery(sources, { fn: "rate", window: options.window, groupLabel: GROUP_LABEL });
  const result = await client.query(query, options.time);
  return result.status === "success" ? group(result, query) : { ...result, query };
}

export async function fetchBucketIncreases(
  client: PrometheusClient,
  source: Pick<MetricSource, "metric" | "matchers">,
  options: { windows: readonly string[]; time: number },
): Promise<BucketGroups | BucketFailure> {
  const query = windowedBucketQuery(source, options.windows, GROUP_LABEL);
  const result = await client.query(query, options.time);
  return result.status === "success" ? group(result, query) : { ...result, query };
}

/** The histogram's `le` values exactly as its exporter writes them ("1", "1.0", "+Inf"). */
export async function fetchLeValues(
  client: PrometheusClient,
  source: Pick<MetricSource, "metric" | "matchers">,
  time: number,
): Promise<{ status: "success"; le: string[] } | BucketFailure> {
  const query = `count by (le) (${bucketSelector(source)})`;
  const result = await client.query(query, time);
  if (result.status !== "success") return { ...result, query };
  return {
    status: "success",
    le: result.samples.map((s) => s.metric.le).filter((le): le is string => le !== undefined),
  };
}
