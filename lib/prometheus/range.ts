import "server-only";
import { parsePrometheusFloat } from "@/lib/domain/histogram";
import type { NativeHistogramValue, PrometheusClient } from "./client";

// Range queries (sparklines, timelines): one series per expression over [start, end] at `step`
// seconds. A native histogram series carries its samples as `histograms`, not `points`.

export type RangeSeries = {
  metric: Record<string, string>;
  points: [number, number][];
  histograms?: [number, NativeHistogramValue][];
};

export type RangeResult =
  { status: "success"; series: RangeSeries[] } | { status: "error"; errorType: string; error: string };

type MatrixData = {
  resultType: string;
  result: {
    metric: Record<string, string>;
    values?: [number, string][];
    histograms?: [number, NativeHistogramValue][];
  }[];
};

export async function queryRange(
  client: PrometheusClient,
  promql: string,
  range: { start: number; end: number; step: number },
): Promise<RangeResult> {
  const params = new URLSearchParams({
    query: promql,
    start: String(range.start),
    end: String(range.end),
    step: String(range.step),
  });
  const result = await client.get<MatrixData>(`/api/v1/query_range?${params.toString()}`);
  if (result.status !== "success") return result;
  if (result.data.resultType !== "matrix")
    return { status: "error", errorType: "bad_data", error: `Expected a matrix, got ${result.data.resultType}` };
  return {
    status: "success",
    series: result.data.result.map(({ metric, values, histograms }) => ({
      metric,
      points: (values ?? []).map(([t, v]) => [t, parsePrometheusFloat(v)] as [number, number]),
      ...(histograms && { histograms }),
    })),
  };
}
