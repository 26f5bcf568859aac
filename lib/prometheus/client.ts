import "server-only";
import { parsePrometheusFloat } from "@/lib/domain/histogram";
import { metrics } from "@/lib/observability/metrics";
import { CircuitOpenError, type BreakerState, type GuardedTransport } from "./breaker";
import { nodeTransport, type HttpResponse, type Transport } from "./transport";
// A small typed Prometheus HTTP API client. Answers are a success | error union; sample values
// arrive as strings and are parsed here. Every request has a timeout well under a page's, and in
// the app every request goes through the URL's circuit breaker (./breaker.ts).

/** A native histogram sample as the HTTP API writes it: buckets are [boundaryRule, lower, upper, count]. */
export type NativeHistogramValue = { count: string; sum: string; buckets?: [number, string, string, string][] };

/** A float sample (`value`), or a native histogram sample (`histogram`, with `value` NaN). */
export type Sample = {
  metric: Record<string, string>;
  value: number;
  timestamp: number;
  histogram?: NativeHistogramValue;
};

export type QueryResult =
  { status: "success"; samples: Sample[]; warnings: string[] } | { status: "error"; errorType: string; error: string };

type VectorData = {
  resultType: string;
  result: {
    metric: Record<string, string>;
    value?: [number, string];
    histogram?: [number, NativeHistogramValue];
  }[];
};

type ApiResponse = { status: "success" | "error"; errorType?: string; error?: string; warnings?: string[] };

export type ApiResult<T> = { status: "success"; data: T } | { status: "error"; errorType: string; error: string };

export type PrometheusClient = {
  baseUrl: string;
  /** The circuit breaker's state, when the client has one. */
  readonly breaker?: BreakerState;
  /** Instant vector query at `time` (unix seconds). */
  query(promql: string, time: number): Promise<QueryResult>;
  /** Any other read of the HTTP API (rules, alerts), answered with its `data`. */
  get<T>(path: `/api/v1/${string}`): Promise<ApiResult<T>>;
  /** Asks Prometheus to reload its configuration and rule files (needs --web.enable-lifecycle). */
  reload(): Promise<{ ok: true } | { ok: false; error: string }>;
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

  type Failure = { status: "error"; errorType: string; error: string };
  const MAX_GET_LENGTH = 4096;

  async function request(path: string, method: "GET" | "POST", body?: string): Promise<HttpResponse | Failure> {
    requestCount++;
    const stopTimer = metrics().prometheusDuration.startTimer({ endpoint: endpointOf(path) });
    const response = await sendRequest(path, method, body);
    stopTimer({ outcome: "errorType" in response ? response.errorType : response.status < 400 ? "success" : "error" });
    return response;
  }

  async function sendRequest(path: string, method: "GET" | "POST", body?: string): Promise<HttpResponse | Failure> {
    try {
      return await send({
        url: `${root}${path}`,
        method,
        headers: body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" },
        body,
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
        // No address in answers: PROMETHEUS_URL may hold a password, and its host is internal
        // (the server's log names it, through displayUrl).
        error: isTimeout ? `Prometheus did not answer within ${timeoutMs} ms` : "Prometheus could not be reached",
      };
    }
  }

  function parseBody<T>(response: HttpResponse): (ApiResponse & { data?: T }) | Failure {
    let body: ApiResponse & { data?: T };
    try {
      body = JSON.parse(response.body) as ApiResponse & { data?: T };
    } catch {
      return {
        status: "error",
        errorType: "bad_response",
        error: `Prometheus answered HTTP ${response.status} without JSON`,
      };
    }
    if (body.status !== "success" || body.data === undefined) {
      return {
        status: "error",
        errorType: body.errorType ?? `http_${response.status}`,
        error: body.error ?? `HTTP ${response.status}`,
      };
    }
    return body;
  }

  async function query(promql: string, time: number): Promise<QueryResult> {
    const response = await request(
      "/api/v1/query",
      "POST",
      new URLSearchParams({
        query: promql,
        time: String(time),
        timeout: `${Math.max(1, Math.floor(timeoutMs / 1000))}s`,
      }).toString(),
    );
    if ("errorType" in response) return response;
    const body = parseBody<VectorData>(response);
    if (body.status === "error") return body as Failure;
    const data = body.data!;
    if (data.resultType !== "vector") {
      return { status: "error", errorType: "bad_data", error: `Expected a vector, got ${data.resultType}` };
    }
    return {
      status: "success",
      warnings: body.warnings ?? [],
      samples: data.result.map(({ metric, value, histogram }) =>
        histogram
          ? { metric, timestamp: histogram[0], value: Number.NaN, histogram: histogram[1] }
          : { metric, timestamp: value?.[0] ?? Number.NaN, value: parsePrometheusFloat(value?.[1]) },
      ),
    };
  }

  async function get<T>(path: `/api/v1/${string}`): Promise<ApiResult<T>> {
    // A long question (a range query over hundreds of sources) goes as a form: Prometheus takes
    // POST on every query endpoint, and a URL of that size is refused on the way.
    const question = path.indexOf("?");
    const response =
      path.length > MAX_GET_LENGTH && question > 0
        ? await request(path.slice(0, question), "POST", path.slice(question + 1))
        : await request(path, "GET");
    if ("errorType" in response) return response;
    const body = parseBody<T>(response);
    return body.status === "error" ? (body as Failure) : { status: "success", data: body.data! };
  }

  async function reload(): Promise<{ ok: true } | { ok: false; error: string }> {
    const response = await request("/-/reload", "POST", "");
    if ("errorType" in response) return { ok: false, error: response.error };
    return response.status === 200
      ? { ok: true }
      : { ok: false, error: `HTTP ${response.status}: ${response.body.slice(0, 300)}` };
  }

  return {
    baseUrl: root,
    query,
    get,
    reload,
    get breaker() {
      return (send as Partial<GuardedTransport>).breaker;
    },
    get requestCount() {
      return requestCount;
    },
  };
}

/** `/api/v1/query_range` → "query_range", `/api/v1/label/le/values?…` → "label", `/-/reload` → "reload". */
function endpointOf(path: string): string {
  const [first] = path.replace(/^\/(api\/v1|-)\//, "").split(/[/?]/);
  return first || "other";
}
