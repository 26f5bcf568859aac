import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

// The app's own health in Prometheus's format (GET /metrics), so a team can budget Latency
// Budgets with itself: request durations by route (recorded by scripts/app-server.ts), Prometheus
// query durations and outcomes, each circuit breaker's state, and cache hits. One registry per
// process, kept on globalThis: the server and Next's route bundles record into the same one
// (prom-client is a server-external package, so both load the same module too).

export type AppMetrics = {
  registry: Registry;
  httpDuration: Histogram<"route" | "method" | "status">;
  prometheusDuration: Histogram<"endpoint" | "outcome">;
  breakerOpen: Gauge<"prometheus">;
  breakerOpened: Counter<"prometheus">;
  cacheRequests: Counter<"cache" | "result">;
  cacheEntries: Gauge<"cache">;
  cacheBytes: Gauge<"cache">;
};

/** Seconds; the request buckets resolve the waterfall's few milliseconds and a slow page's seconds. */
const HTTP_BUCKETS = [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function create(): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "latency_budgets_" });
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: "latency_budgets_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its response, by route pattern.",
      labelNames: ["route", "method", "status"],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    prometheusDuration: new Histogram({
      name: "latency_budgets_prometheus_request_duration_seconds",
      help: "Requests to Prometheus's HTTP API, by endpoint and outcome (success, error, timeout, unreachable, circuit_open).",
      labelNames: ["endpoint", "outcome"],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    breakerOpen: new Gauge({
      name: "latency_budgets_prometheus_circuit_open",
      help: "1 while the circuit breaker to a Prometheus is open (views serve their last good data), else 0.",
      labelNames: ["prometheus"],
      registers,
    }),
    breakerOpened: new Counter({
      name: "latency_budgets_prometheus_circuit_opened_total",
      help: "How often the circuit breaker to a Prometheus opened.",
      labelNames: ["prometheus"],
      registers,
    }),
    cacheRequests: new Counter({
      name: "latency_budgets_cache_requests_total",
      help: "Lookups in the app's caches (actors, budgets, SLO definitions, serialised answers, coalesced Prometheus queries), by result.",
      labelNames: ["cache", "result"],
      registers,
    }),
    cacheEntries: new Gauge({
      name: "latency_budgets_cache_entries",
      help: "Entries each of the app's caches holds now (each is bounded in entries and bytes).",
      labelNames: ["cache"],
      registers,
      collect() {
        for (const [cache, size] of cacheSizes) this.set({ cache }, size().entries);
      },
    }),
    cacheBytes: new Gauge({
      name: "latency_budgets_cache_bytes",
      help: "Bytes each of the app's caches counts against its bound now.",
      labelNames: ["cache"],
      registers,
      collect() {
        for (const [cache, size] of cacheSizes) this.set({ cache }, size().bytes);
      },
    }),
  };
}

const globalForMetrics = globalThis as unknown as { latencyBudgetsMetrics?: AppMetrics };

export function metrics(): AppMetrics {
  globalForMetrics.latencyBudgetsMetrics ??= create();
  return globalForMetrics.latencyBudgetsMetrics;
}

export type CacheName =
  | "actor"
  | "budget"
  | "slo-definitions"
  | "waterfall"
  | "last-good"
  | "timeline"
  | "slos"
  | "kpis"
  | "status"
  | "prometheus-query";

type CacheSize = () => { entries: number; bytes: number };
const globalForSizes = globalThis as unknown as { latencyBudgetsCacheSizes?: Map<CacheName, CacheSize> };
const cacheSizes = (globalForSizes.latencyBudgetsCacheSizes ??= new Map());

/** Lets /metrics report what a cache holds (read when Prometheus scrapes, never before). */
export function reportCacheSize(cache: CacheName, size: CacheSize): void {
  cacheSizes.set(cache, size);
}

/** Counts one lookup in a named cache. */
export function countCacheLookup(cache: CacheName, hit: boolean): void {
  metrics().cacheRequests.inc({ cache, result: hit ? "hit" : "miss" });
}
