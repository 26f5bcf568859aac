import "server-only";
import { countCacheLookup, type CacheName } from "@/lib/observability/metrics";

// A repeated live view within one aligned time step asks the same question and gets the same
// answer: its serialised JSON is kept and sent again, so a hit costs what an empty route does.
// Bounded in entries; only complete answers are kept, so a failure is retried on the next request.

export type JsonCache = {
  /** The cached body for `key`, or the one `build` makes (kept when `keep` says it is complete). */
  get<T>(key: string, build: () => Promise<T>, keep: (value: T) => boolean): Promise<string>;
};

const globalForCaches = globalThis as unknown as {
  latencyBudgetsJsonCaches?: Map<string, Map<string, { body: string; expires: number }>>;
};
const caches = (globalForCaches.latencyBudgetsJsonCaches ??= new Map());

export function jsonCache(name: CacheName, options: { ttlMs: number; maxEntries: number }): JsonCache {
  let entries = caches.get(name);
  if (!entries) caches.set(name, (entries = new Map()));
  const store = entries;
  return {
    async get(key, build, keep) {
      const now = Date.now();
      const hit = store.get(key);
      countCacheLookup(name, Boolean(hit && hit.expires > now));
      if (hit && hit.expires > now) return hit.body;
      const value = await build();
      const body = JSON.stringify(value);
      if (keep(value)) {
        if (store.size >= options.maxEntries)
          for (const [k, v] of store) if (v.expires <= Date.now() || store.size >= options.maxEntries) store.delete(k);
        store.set(key, { body, expires: Date.now() + options.ttlMs });
      }
      return body;
    },
  };
}
