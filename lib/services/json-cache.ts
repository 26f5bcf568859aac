import "server-only";
import { LRUCache } from "lru-cache";
import { countCacheLookup, reportCacheSize, type CacheName } from "@/lib/observability/metrics";

// A repeated live view within one aligned time step asks the same question and gets the same
// answer: its serialised JSON is kept and sent again, so a hit costs what an empty route does.
// Requests that ask while the answer is being built wait for that one build instead of starting
// their own. Bounded in entries and in bytes (least recently used first out); only complete
// answers are kept, so a failure is retried on the next request.

export type JsonCache = {
  /** The cached body for `key`, or the one `build` makes (kept when `keep` says it is complete). */
  get<T>(key: string, build: () => Promise<T>, keep: (value: T) => boolean): Promise<string>;
};

export type JsonCacheOptions = { ttlMs: number; maxEntries: number; maxBytes?: number };

/** Every cache's bytes are bounded: 16 MiB unless a cache says otherwise. */
export const DEFAULT_MAX_BYTES = 16 << 20;

type Caches = Map<string, { store: LRUCache<string, string>; building: Map<string, Promise<string>> }>;
const globalForCaches = globalThis as unknown as { latencyBudgetsJsonCaches?: Caches };
const caches: Caches = (globalForCaches.latencyBudgetsJsonCaches ??= new Map());

export function jsonCache(name: CacheName, options: JsonCacheOptions): JsonCache {
  let cache = caches.get(name);
  if (!cache) {
    cache = {
      store: new LRUCache<string, string>({
        max: options.maxEntries,
        maxSize: options.maxBytes ?? DEFAULT_MAX_BYTES,
        // UTF-16 in memory: two bytes a character, plus the key.
        sizeCalculation: (body, key) => 2 * (body.length + key.length),
        ttl: Math.max(1, options.ttlMs),
        // An answer's age is from when it was built, never refreshed by being read.
        updateAgeOnGet: false,
        // Keys carry the aligned time, so most are never asked for again: an expired answer
        // leaves memory when it expires instead of waiting for the bound to push it out.
        ttlAutopurge: true,
      }),
      building: new Map(),
    };
    caches.set(name, cache);
    const { store } = cache;
    reportCacheSize(name, () => ({ entries: store.size, bytes: store.calculatedSize }));
  }
  const { store, building } = cache;
  return {
    async get(key, build, keep) {
      const hit = store.get(key);
      countCacheLookup(name, hit !== undefined);
      if (hit !== undefined) return hit;
      const pending = building.get(key);
      if (pending) return pending;
      const made = (async () => {
        const value = await build();
        const body = JSON.stringify(value);
        if (keep(value) && options.ttlMs > 0) store.set(key, body);
        return body;
      })();
      building.set(key, made);
      try {
        return await made;
      } finally {
        building.delete(key);
      }
    },
  };
}

/** What every serialised-answer cache holds now, for the memory benchmark and /metrics. */
export function jsonCacheSizes(): { name: string; entries: number; bytes: number }[] {
  return [...caches].map(([name, { store }]) => ({ name, entries: store.size, bytes: store.calculatedSize }));
}
