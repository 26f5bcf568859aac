import "server-only";
import { LRUCache } from "lru-cache";
import { countCacheLookup, reportCacheSize } from "@/lib/observability/metrics";
import type { ApiResult, PrometheusClient, QueryResult } from "./client";

// Many viewers of one incident ask the same question at the same moment. Queries are keyed by
// their text and a time aligned to `stepSeconds`; one request is in flight per key and its
// answer is kept for `ttlMs`, so 200 viewers cost about what one does.

export type CoalescingClient = PrometheusClient & { alignTime(unixSeconds: number): number };

export function coalesce(
  client: PrometheusClient,
  options: { stepSeconds?: number; ttlMs?: number; maxEntries?: number; maxBytes?: number } = {},
): CoalescingClient {
  const stepSeconds = options.stepSeconds ?? 5;
  const ttlMs = options.ttlMs ?? 5000;
  type Answer = QueryResult | ApiResult<unknown>;
  // Answers, bounded in entries and bytes (their JSON's length, measured once when they arrive);
  // requests in flight are shared apart from them, so a slow query is never asked twice.
  const answers = new LRUCache<string, Answer>({
    max: options.maxEntries ?? 500,
    maxSize: options.maxBytes ?? 32 << 20,
    sizeCalculation: (answer) => 2 * JSON.stringify(answer).length + 64,
    ttl: Math.max(1, ttlMs),
    updateAgeOnGet: false,
    // Keys carry the aligned time and are not asked for again: drop each answer when it expires.
    ttlAutopurge: true,
  });
  const inFlight = new Map<string, Promise<Answer>>();
  reportCacheSize("prometheus-query", () => ({ entries: answers.size, bytes: answers.calculatedSize }));

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

  function shared<R extends Answer>(key: string, run: () => Promise<R>): Promise<R> {
    const hit = answers.get(key);
    countCacheLookup("prometheus-query", hit !== undefined);
    if (hit !== undefined) return Promise.resolve(hit as R);
    const pending = inFlight.get(key);
    if (pending) return pending as Promise<R>;
    const promise = run();
    inFlight.set(key, promise);
    // Errors are not kept beyond the request in flight: the next refresh tries again.
    void promise.then(
      (result) => {
        inFlight.delete(key);
        if (result.status === "success" && ttlMs > 0) answers.set(key, result);
      },
      () => inFlight.delete(key),
    );
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
