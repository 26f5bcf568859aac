import "server-only";
// A small typed Prometheus HTTP API client. Answers are a success | error union; sample values
// arrive as strings and are parsed here. Every request has a timeout well under a page's.

export type Sample = { metric: Record<string, string>; value: number; timestamp: number };

export type QueryResult =
  { status: "success"; samples: Sample[]; warnings: string[] } | { status: "error"; errorType: string; error: string };

type VectorResponse = {
  status: "success" | "error";
  data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
  errorType?: string;
  error?: string;
  warnings?: string[];
};

export type PrometheusClient = {
  baseUrl: string;
  /** Instant vector query at `time` (unix seconds). */
  query(promql: string, time: number): Promise<QueryResult>;
  /** Counts requests, for benchmarks and tests. */
  readonly requestCount: number;
};

export function createPrometheusClient(
  baseUrl: string,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): PrometheusClient {
  const timeoutMs = options.timeoutMs ?? 4000;
  const doFetch = options.fetch ?? fetch;
  const root = baseUrl.replace(/\/+$/, "");
  let requestCount = 0;

  async function query(promql: string, time: number): Promise<QueryResult> {
    requestCount++;
    let response: Response;
    try {
      response = await doFetch(`${root}/api/v1/query`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          query: promql,
          time: String(time),
          timeout: `${Math.max(1, Math.floor(timeoutMs / 1000))}s`,
        }),
        signal: AbortSignal.timeout(timeoutMs),
        cache: "no-store",
      });
    } catch (error) {
      const isTimeout = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      return {
        status: "error",
        errorType: isTimeout ? "timeout" : "unreachable",
        error: isTimeout ? `Prometheus did not answer within ${timeoutMs} ms` : `Prometheus is unreachable at ${root}`,
      };
    }
    let body: VectorResponse;
    try {
      body = (await response.json()) as VectorResponse;
    } catch {
      return {
        status: "error",
        errorType: "bad_response",
        error: `Prometheus answered HTTP ${response.status} without JSON`,
      };
    }
    if (body.status !== "success" || !body.data) {
      return {
        status: "error",
        errorType: body.errorType ?? `http_${response.status}`,
        error: body.error ?? `HTTP ${response.status}`,
      };
    }
    if (body.data.resultType !== "vector") {
      return { status: "error", errorType: "bad_data", error: `Expected a vector, got ${body.data.resultType}` };
    }
    return {
      status: "success",
      warnings: body.warnings ?? [],
      samples: body.data.result.map(({ metric, value: [timestamp, value] }) => ({
        metric,
        timestamp,
        value: Number(value),
      })),
    };
  }

  return {
    baseUrl: root,
    query,
    get requestCount() {
      return requestCount;
    },
  };
}
