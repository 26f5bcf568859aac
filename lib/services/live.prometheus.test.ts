import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { guardedTransport } from "@/lib/prometheus/breaker";
import { coalesce } from "@/lib/prometheus/coalesce";
import { selector } from "@/lib/prometheus/promql";
import { startFixtureExporter } from "@/test/fixture-exporter";
import { startPrometheus } from "@/scripts/stack/prometheus";
import { createService } from "./services";
import { createSlo, getSloStatuses } from "./slos";
import { getWaterfall } from "./waterfall";
import { testUser } from "@/test/actors";

// The on-call views end to end below the browser: real database, real Prometheus, fixture data.

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const raw = createPrometheusClient(inject("prometheusUrl"));
const actor = testUser("test");
afterAll(() => db.$disconnect());

const fixture = (component: string) => ({
  preset: "custom" as const,
  metric: "fixture_latency_seconds",
  matchers: { component },
});

async function fixtureService() {
  const slug = `live-${randomUUID().slice(0, 8)}`;
  await createService({
    db,
    actor,
    input: {
      slug,
      name: "Fixture",
      targetMs: 1000,
      endToEndSource: { preset: "custom", metric: "fixture_ttft_seconds", matchers: {} },
      stages: [
        {
          name: "Fast",
          components: [{ name: "fast", budgetMs: { p50: null, p95: 100, p99: null }, source: fixture("fast") }],
        },
        {
          name: "Parallel",
          components: [
            { name: "slow", budgetMs: { p50: 600, p95: 700, p99: null }, source: fixture("slow") },
            { name: "hostile", budgetMs: { p50: null, p95: 50, p99: null }, source: fixture('a"} or vector(1) #') },
          ],
        },
        {
          name: "Unmeasured",
          components: [{ name: "none", budgetMs: { p50: null, p95: 10, p99: null }, source: null }],
        },
      ],
    },
  });
  return slug;
}

async function prometheusQuantile(q: number, component: string, at: number): Promise<number> {
  const result = await raw.query(
    `histogram_quantile(${q}, sum by (le) (rate(${selector("fixture_latency_seconds_bucket", { component })}[1m])))`,
    at,
  );
  if (result.status !== "success") throw new Error(result.error);
  return result.samples[0]!.value * 1000;
}

describe("waterfall against a real Prometheus", () => {
  it("matches Prometheus's histogram_quantile per component, in one request", async () => {
    const slug = await fixtureService();
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
    const view = await getWaterfall({ db, prom, slug, query: { quantile: "0.5", window: "1m" } });
    expect(prom.requestCount).toBe(1);
    expect(view).toMatchObject({ stale: false, error: null, prometheus: "up" });
    const fast = view.stages[0]!.components[0]!;
    const slow = view.stages[1]!.components[0]!;
    expect(fast.actualMs).toBeCloseTo(await prometheusQuantile(0.5, "fast", view.at), 6);
    expect(slow.actualMs).toBeCloseTo(await prometheusQuantile(0.5, "slow", view.at), 6);
    expect(slow).toMatchObject({ status: "ok", onCriticalPath: true });
    expect(view.stages[2]!.components[0]).toMatchObject({ status: "nodata", hasSource: false });
    expect(view.measuredEndToEndMs).not.toBeNull();
  });

  it("shows a percentile in the +Inf bucket as ≥ the last bound, and over budget", async () => {
    const slug = await fixtureService();
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
    const view = await getWaterfall({ db, prom, slug, query: { quantile: "0.95", window: "1m" } });
    expect(view.stages[1]!.components[0]).toMatchObject({
      name: "slow",
      actualMs: 1000,
      isLowerBound: true,
      status: "over",
    });
    expect(view.worstOffender).toMatchObject({ component: "slow", overByMs: 300 });
  });

  it("200 viewers refreshing together cost one Prometheus request", async () => {
    const slug = await fixtureService();
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
    const now = Date.now() / 1000;
    const views = await Promise.all(
      Array.from({ length: 200 }, () => getWaterfall({ db, prom, slug, query: { window: "1m" }, now })),
    );
    expect(prom.requestCount).toBe(1);
    expect(new Set(views.map((v) => v.stackedMs)).size).toBe(1);
  });

  it("compares with an earlier time as deltas per component", async () => {
    const slug = await fixtureService();
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
    const at = Math.floor(Date.now() / 1000) - 2;
    const view = await getWaterfall({ db, prom, slug, query: { window: "1m", compare: String(at - 3) } });
    const fast = view.stages[0]!.components[0]!;
    expect(view.compare).not.toBeNull();
    expect(fast.deltaMs).toBeCloseTo(fast.actualMs! - fast.previousActualMs!, 9);
  });

  it("serves the last good answer marked stale while Prometheus is down, and recovers", async () => {
    const exporter = await startFixtureExporter();
    const server = await startPrometheus({ targets: [exporter.target], scrapeInterval: "1s" });
    try {
      await new Promise((r) => setTimeout(r, 4000));
      const slug = await fixtureService();
      const prom = coalesce(createPrometheusClient(server.url, { timeoutMs: 1000 }), { ttlMs: 0, stepSeconds: 1 });
      const good = await getWaterfall({ db, prom, slug, query: { window: "1m" } });
      expect(good).toMatchObject({ stale: false, prometheus: "up" });

      await server.stop();
      const stale = await getWaterfall({ db, prom, slug, query: { window: "1m" }, now: Date.now() / 1000 + 2 });
      expect(stale).toMatchObject({ stale: true, prometheus: "down", stackedMs: good.stackedMs });
      expect(stale.error).toMatch(/could not be reached/);
      expect(stale.staleSince).not.toBeNull();

      await server.start();
      await new Promise((r) => setTimeout(r, 2500));
      const recovered = await getWaterfall({ db, prom, slug, query: { window: "1m" }, now: Date.now() / 1000 });
      expect(recovered).toMatchObject({ stale: false, prometheus: "up", error: null });
    } finally {
      await server.close();
      await exporter.stop();
    }
  });

  it("a hung Prometheus makes one view wait its timeout; a view asked while the probe confirms it, and every view after, answers in under a second, and live data returns", async () => {
    const exporter = await startFixtureExporter();
    const server = await startPrometheus({ targets: [exporter.target], scrapeInterval: "1s" });
    try {
      await new Promise((r) => setTimeout(r, 4000));
      const slug = await fixtureService();
      const prom = coalesce(
        createPrometheusClient(server.url, {
          timeoutMs: 4000,
          // The early probe out of reach: the path of a view that met the hang and timed out first.
          transport: guardedTransport(server.url, { retryMs: 1000, probeTimeoutMs: 1000, slowAfterMs: 60_000 }),
        }),
        { ttlMs: 0, stepSeconds: 1 },
      );
      const view = (offset: number) =>
        getWaterfall({ db, prom, slug, query: { window: "1m" }, now: Date.now() / 1000 + offset });
      expect(await view(0)).toMatchObject({ stale: false, prometheus: "up" });

      server.freeze();
      // SIGSTOP takes effect a moment later: wait until Prometheus no longer answers.
      await expect
        .poll(
          () =>
            fetch(`${server.url}/-/ready`, { signal: AbortSignal.timeout(200) }).then(
              () => "answers",
              () => "hung",
            ),
          {
            timeout: 5000,
            interval: 0,
          },
        )
        .toBe("hung");
      const first = await timed(() => view(1));
      expect(first.value).toMatchObject({ stale: true, prometheus: "down" });
      expect(first.ms).toBeGreaterThanOrEqual(3900);
      // The next view, 100 ms later, while the probe is confirming the timeout: it waits for the
      // probe's verdict (at most 1 s), not a second 4 s timeout. Loosely timed: a behaviour test.
      await new Promise((r) => setTimeout(r, 100));
      const second = await timed(() => view(1.5));
      expect(second.value).toMatchObject({ stale: true, prometheus: "down", stackedMs: first.value.stackedMs });
      expect(second.ms).toBeLessThan(2000);
      // A timeout alone could be one slow query: the breaker opens when the trivial probe fails too.
      await expect.poll(() => prom.breaker?.state, { timeout: 3000, interval: 50 }).toBe("open");
      for (let i = 2; i < 7; i++) {
        const next = await timed(() => view(i));
        expect(next.ms).toBeLessThan(1000);
        expect(next.value).toMatchObject({ stale: true, prometheus: "down" });
        expect(next.value.error).toMatch(/did not answer in time; checking again in the background/);
      }
      const slos = await timed(() => getSloStatuses({ db, prom, slug }));
      expect(slos.ms).toBeLessThan(1000);

      server.thaw();
      const thawedAt = Date.now();
      let live = await view(10);
      while (live.stale && Date.now() - thawedAt < 30_000) {
        await new Promise((r) => setTimeout(r, 250));
        live = await view((Date.now() - thawedAt) / 1000 + 10);
      }
      expect(live).toMatchObject({ stale: false, prometheus: "up", error: null });
      expect(Date.now() - thawedAt).toBeLessThan(30_000);
    } finally {
      server.thaw();
      await server.close();
      await exporter.stop();
    }
  });

  it("views asked while the first is still hanging do not wait its timeout: a query unanswered for 750 ms asks the probe, and its failure answers them all, stale", async () => {
    const exporter = await startFixtureExporter();
    const server = await startPrometheus({ targets: [exporter.target], scrapeInterval: "1s" });
    try {
      await new Promise((r) => setTimeout(r, 4000));
      const slug = await fixtureService();
      // The production settings: 4 s queries, a 1 s probe asked after 750 ms without an answer.
      const prom = coalesce(
        createPrometheusClient(server.url, {
          timeoutMs: 4000,
          transport: guardedTransport(server.url, { retryMs: 60_000 }),
        }),
        { ttlMs: 0, stepSeconds: 1 },
      );
      const view = (offset: number) =>
        getWaterfall({ db, prom, slug, query: { window: "1m" }, now: Date.now() / 1000 + offset });
      const good = await view(0);
      expect(good).toMatchObject({ stale: false, prometheus: "up" });

      server.freeze();
      await expect
        .poll(
          () =>
            fetch(`${server.url}/-/ready`, { signal: AbortSignal.timeout(200) }).then(
              () => "answers",
              () => "hung",
            ),
          { timeout: 5000, interval: 0 },
        )
        .toBe("hung");
      // Different questions (each its own aligned time) at +0, +0.5 s and +2 s.
      const later = (ms: number, offset: number) =>
        new Promise((r) => setTimeout(r, ms)).then(() => timed(() => view(offset)));
      const views = await Promise.all([later(0, 2), later(500, 3), later(2000, 4)]);
      for (const { ms, value } of views) {
        expect(value).toMatchObject({ stale: true, prometheus: "down", stackedMs: good.stackedMs });
        // The open circuit's answer, not a timeout's.
        expect(value.error).toMatch(/did not answer in time; checking again in the background/);
        // Well under the 4 s timeout; loose for a busy machine.
        expect(ms).toBeLessThan(2500);
      }
      // The views at +0.5 s and +2 s: the probe's verdict (at about 1.75 s) or the open circuit.
      expect(views[1]!.ms).toBeLessThan(1500);
      expect(views[2]!.ms).toBeLessThan(1500);
      expect(prom.breaker).toMatchObject({ state: "open", reason: "did not answer in time" });
    } finally {
      server.thaw();
      await server.close();
      await exporter.stop();
    }
  });

  it("refuses bad view parameters with field messages", async () => {
    const slug = await fixtureService();
    await expect(
      getWaterfall({ db, prom: null, slug, query: { quantile: "0.9", window: "5x", at: "tomorrow" } }),
    ).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      fields: {
        quantile: expect.any(String),
        window: "Window is a duration like 5m, 1h or 1d",
        at: expect.any(String),
      },
    });
  });
});

describe("SLOs against a real Prometheus", () => {
  it("attainment, budget, burn rates and alert states equal the hand-computed values", async () => {
    const slug = await fixtureService();
    await createSlo({
      db,
      actor,
      slug,
      input: {
        name: "TTFT",
        source: { preset: "custom", metric: "fixture_ttft_seconds", matchers: {} },
        thresholdMs: 700,
        objective: 0.99,
        windowDays: 28,
      },
    });
    await createSlo({
      db,
      actor,
      slug,
      input: {
        name: "vLLM-like",
        source: { preset: "custom", metric: "fixture_vllm_ttft_seconds", matchers: {} },
        thresholdMs: 700,
        objective: 0.9,
        thresholdMode: "snap",
      },
    });
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
    const [ttft, vllm] = await getSloStatuses({ db, prom, slug });

    expect(ttft).toMatchObject({
      name: "TTFT",
      thresholdMode: "exact",
      countedBoundMs: 700,
      window: "28d",
      error: null,
    });
    expect(ttft!.attainment).toBeCloseTo(0.98, 9);
    expect(ttft!.errorBudgetRemaining).toBeCloseTo(-1, 6);
    for (const rate of Object.values(ttft!.burnRates)) expect(rate).toBeCloseTo(2, 6);
    expect(ttft!.alerts.map((a) => [a.severity, a.longWindow, Math.round(a.factor * 100) / 100, a.firing])).toEqual([
      ["page", "1h", 13.44, false],
      ["page", "6h", 5.6, false],
      ["ticket", "1d", 2.8, false],
      ["ticket", "3d", 0.93, true],
    ]);

    expect(vllm).toMatchObject({
      name: "vLLM-like",
      thresholdMode: "snapped",
      countedBoundMs: 500,
      bucketBoundsMs: [500, 750, 1000],
    });
    expect(vllm!.attainment).toBeCloseTo(0.8, 9);
    // One query per SLO for every window at once, and one look at the loaded rules for all of them.
    expect(prom.requestCount).toBe(3);
    expect(ttft!.dataPath.kind).toBe("raw");
    expect(ttft!.dataPath.note).toContain("not loaded");

    // Viewing the 28-day SLO over 7 days changes the attainment window, never the alert factors:
    // at 7-day factors (3.36, 1.4, 0.7, 0.23) a steady burn of 2 would fire three alerts.
    const [viewedAt7d] = await getSloStatuses({ db, prom, slug, query: { window: "7d" } });
    expect(viewedAt7d!.window).toBe("7d");
    expect(viewedAt7d!.alerts.map((a) => [Math.round(a.factor * 100) / 100, a.firing])).toEqual([
      [13.44, false],
      [5.6, false],
      [2.8, false],
      [0.93, true],
    ]);
  });
});
