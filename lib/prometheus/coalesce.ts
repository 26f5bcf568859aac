import "server-only";
import { countCacheLookup } from "@/lib/observability/metrics";
import type { ApiResult, PrometheusClient, QueryResult } from "./client";

// Many viewers of one incident ask the same question at the same moment. Queries are keyed by
// their text and a time aligned to `stepSeconds`; one request is in flight per key and its
// answer is kept for `ttlMs`, so 200 viewers cost about what one does.

export type CoalescingClient = PrometheusClient & { alignTime(unixSeconds: number): number };

export function coalesce(
  client: PrometheusClient,
  options: { stepSeconds?: number; ttlMs?: number; maxEntries?: number } = {},
): CoalescingClient {
  const stepSeconds = options.stepSeconds ?? 5;
  const ttlMs = options.ttlMs ?? 5000;
  const maxEntries = options.maxEntries ?? 500;
  const entries = new Map<string, { promise: Promise<QueryResult | ApiResult<unknown>>; expires: number }>();

  const alignTime = (t: number) => Math.floor(t / stepSeconds) * stepSeconds;

  function query(promql: string, time: number): Promise<QueryResult> {
    const aligned = alignTime(time);
    return shared(`${aligned}\u0000${promql}`, () => client.query(promql, aligned));
  }

  /** Reads of the API (alerts, rules) are shared the same way, keyed by path and the aligned clock. */
  function get<T>(path: `/api/v1/${string}`): Promise<ApiResult<T>> {
    return shared(`GET\u0000${alignTime(Date.now() / 1000)}\u0000${path}`, () => client.get<T>(path)) as Promise<
      ApiResult<T>
    >;
  }

  function shared<R extends QueryResult | ApiResult<unknown>>(key: string, run: () => Promise<R>): Promise<R> {
    const now = Date.now();
    const hit = entries.get(key);
    countCacheLookup("prometheus-query", Boolean(hit && hit.expires > now));
    if (hit && hit.expires > now) return hit.promise as Promise<R>;
    if (entries.size >= maxEntries) {
      for (const [k, v] of entries) if (v.expires <= now || entries.size >= maxEntries) entries.delete(k);
    }
    const promise = run();
    // Errors are not cached beyond the request in flight: the next refresh tries again.
    const entry = { promise, expires: Number.POSITIVE_INFINITY };
    entries.set(key, entry);
    void promise.then((result) => {
      if (result.status === "success") entry.expires = Date.now() + ttlMs;
      else entries.delete(key);
    });
    return promise;
  }

  return {
    baseUrl: client.baseUrl,
    query,
    get,
    reload: () => client.reload(),
    alignTime,
    get breaker() {
      return client.breaker;
    },
    get requestCount() {
      return client.requestCount;
    },
  };
}
