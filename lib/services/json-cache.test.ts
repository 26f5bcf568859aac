import { describe, expect, it } from "vitest";
import { metrics } from "@/lib/observability/metrics";
import { jsonCache, jsonCacheSizes } from "./json-cache";

// The serialised-answer cache's promises: one build for requests that ask together, never an
// answer older than its lifetime, failures never kept, and a bound in entries and in bytes.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("jsonCache", () => {
  it("builds once for requests that ask together, and answers repeats from the cache", async () => {
    const cache = jsonCache("waterfall", { ttlMs: 60_000, maxEntries: 10 });
    let builds = 0;
    const build = async () => {
      builds++;
      await sleep(20);
      return { n: builds };
    };
    const bodies = await Promise.all(Array.from({ length: 50 }, () => cache.get("together", build, () => true)));
    expect(new Set(bodies)).toEqual(new Set(['{"n":1}']));
    expect(await cache.get("together", build, () => true)).toBe('{"n":1}');
    expect(builds).toBe(1);
  });

  it("never answers with a body older than its lifetime", async () => {
    const cache = jsonCache("timeline", { ttlMs: 80, maxEntries: 10 });
    let builds = 0;
    const build = async () => ({ built: ++builds });
    expect(await cache.get("k", build, () => true)).toBe('{"built":1}');
    expect(await cache.get("k", build, () => true)).toBe('{"built":1}');
    await sleep(120);
    expect(await cache.get("k", build, () => true)).toBe('{"built":2}');
  });

  it("lets an expired answer go when it expires, not when the bound pushes it out", async () => {
    const cache = jsonCache("actor", { ttlMs: 50, maxEntries: 100 });
    const held = () => jsonCacheSizes().find((c) => c.name === "actor")!;
    for (const key of ["t1", "t2", "t3"])
      await cache.get(
        key,
        async () => ({ key }),
        () => true,
      );
    expect(held().entries).toBe(3);
    await sleep(120);
    expect(held()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("does not keep an answer its caller calls incomplete: the next request builds again", async () => {
    const cache = jsonCache("slos", { ttlMs: 60_000, maxEntries: 10 });
    let builds = 0;
    const build = async () => ({ error: ++builds < 2 ? "Prometheus is down" : null });
    const keep = (view: { error: string | null }) => view.error === null;
    expect(JSON.parse(await cache.get("k", build, keep)).error).toBe("Prometheus is down");
    expect(JSON.parse(await cache.get("k", build, keep)).error).toBeNull();
    expect(JSON.parse(await cache.get("k", build, keep)).error).toBeNull();
    expect(builds).toBe(2);
  });

  it("holds at most its entries and its bytes, dropping the least recently used", async () => {
    const cache = jsonCache("kpis", { ttlMs: 60_000, maxEntries: 3, maxBytes: 10_000 });
    let builds = 0;
    const small = async () => ({ build: ++builds });
    for (const key of ["a", "b", "c", "d"]) await cache.get(key, small, () => true);
    expect(builds).toBe(4);
    await cache.get("a", small, () => true); // "a" was the oldest of four: gone
    expect(builds).toBe(5);
    // A body of 3,000 characters is 6,000 bytes: two cannot fit in 10,000.
    const big = async () => ({ text: "x".repeat(3000), build: ++builds });
    await cache.get("big1", big, () => true);
    await cache.get("big2", big, () => true);
    const before = builds;
    await cache.get("big1", big, () => true);
    expect(builds).toBe(before + 1);
  });

  it("reports what it holds on /metrics, in entries and in the bytes its bound counts", async () => {
    const cache = jsonCache("status", { ttlMs: 60_000, maxEntries: 10 });
    await cache.get(
      "board",
      async () => ({ services: ["chat-api", "search"] }),
      () => true,
    );
    const text = await metrics().registry.metrics();
    const value = (name: string) => Number(new RegExp(`^${name}\\{cache="status"\\} (\\d+)$`, "m").exec(text)?.[1]);
    const held = jsonCacheSizes().find((c) => c.name === "status")!;
    expect(held.entries).toBe(1);
    expect(value("latency_budgets_cache_entries")).toBe(1);
    // '{"services":["chat-api","search"]}' (34 characters) and the key "board", two bytes each.
    expect(value("latency_budgets_cache_bytes")).toBe(2 * (34 + 5));
  });
});
