import "server-only";
import { CircuitOpenError, type BreakerState, type GuardedTransport } from "./breaker";
import { nodeTransport, type HttpResponse, type Transport } from "./transport";
// A small typed Prometheus HTTP API client. Answers are a success | error union; sample values
// arrive as strings and are parsed here. Every request has a timeout well under a page's, and in
// the app every request goes through the URL's circuit breaker (./breaker.ts).

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
  /** The circuit breaker's state, when the client has one. */
  readonly breaker?: BreakerState;
  /** Instant vector query at `time` (unix seconds). */
  query(promql: string, time: number): Promise<QueryResult>;
  /** Counts requests, for benchmarks and tests. */
  readonly requestCount: number;
};

export function createPrometheusClient(
  baseUrl: string,
  options: { timeoutMs?: number; transport?: Transport | GuardedTransport } = {},
): PrometheusClient {
  const timeoutMs = options.timeoutMs ?? 4000;
  const send = options.transport ?? nodeTransport;
  const root = baseUrl.replace(/\/+$/, "");
  let requestCount = 0;

  async function query(promql: string, time: number): Promise<QueryResult> {
    requestCount++;
    let response: HttpResponse;
    try {
      response = await send({
        url: `${root}/api/v1/query`,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          query: promql,
          time: String(time),
          timeout: `${Math.max(1, Math.floor(timeoutMs / 1000))}s`,
        }).toString(),
        timeoutMs,
      });
    } catch (error) {
      if (error instanceof CircuitOpenError)
        return {
          status: "error",
          errorType: "circuit_open",
          error: `${error.message} (not answering since ${new Date(error.openedAt).toLocaleTimeString("en-GB")})`,
        };
      const isTimeout = error instanceof Error && error.name === "TimeoutError";
      return {
        status: "error",
        errorType: isTimeout ? "timeout" : "unreachable",
        error: isTimeout ? `Prometheus did not answer within ${timeoutMs} ms` : `Prometheus is unreachable at ${root}`,
      };
    }
    let body: VectorResponse;
    try {
      body = JSON.parse(response.body) as VectorResponse;
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
    get breaker() {
      return (send as Partial<GuardedTransport>).breaker;
    },
    get requestCount() {
      return requestCount;
    },
  };
}
