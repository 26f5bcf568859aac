import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { coalesce } from "@/lib/prometheus/coalesce";
import { testUser } from "@/test/actors";
import { createService } from "./services";
import { createSlo } from "./slos";
import { getStatusBoard } from "./status";
import { getWaterfall } from "./waterfall";

// The status board against the fixture exporter's steady series: a service whose slow component
// is far over budget comes before one that is within, with the component, its measured pXX and
// since when, and the measured figure is the waterfall's own.

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const actor = testUser("test");
afterAll(() => db.$disconnect());

const slow = { preset: "custom" as const, metric: "fixture_latency_seconds", matchers: { component: "slow" } };

async function service(name: string, budgetMs: number) {
  const slug = `st-${name}-${randomUUID().slice(0, 6)}`;
  await createService({
    db,
    actor,
    input: {
      slug,
      name,
      targetMs: 5000,
      stages: [
        {
          name: "Generate",
          components: [{ name: "LLM", budgetMs: { p50: null, p95: budgetMs, p99: null }, source: slow }],
        },
      ],
    },
  });
  return slug;
}

describe("the status board", () => {
  it("puts the service with a component over budget first, and says which and since when", async () => {
    const [fine, over] = [await service("fine", 4000), await service("over", 100)];
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")), { ttlMs: 0 });
    // The hour's last point (on a 15 s step) needs two scrapes before it: a Prometheus started
    // moments ago (this file run alone) may not have them yet.
    let now = Math.floor(Date.now() / 1000) - 2;
    let board = await getStatusBoard({ db, prom, now });
    for (let tries = 0; tries < 30 && board.services.find((s) => s.slug === over)?.trend.at(-1)?.[1] == null; tries++) {
      await new Promise((r) => setTimeout(r, 1000));
      now = Math.floor(Date.now() / 1000) - 2;
      board = await getStatusBoard({ db, prom, now });
    }
    const slugs = board.services.map((s) => s.slug);
    expect(slugs.indexOf(over)).toBeLessThan(slugs.indexOf(fine));
    const bad = board.services.find((s) => s.slug === over)!;
    const good = board.services.find((s) => s.slug === fine)!;
    const waterfall = await getWaterfall({ db, prom, slug: over, query: { quantile: "0.95" }, now });
    const llm = waterfall.stages[0]!.components[0]!;
    expect(bad.overBudget).toEqual([
      { stage: "Generate", component: "LLM", actualMs: llm.actualMs, budgetMs: 100, since: expect.any(Number) },
    ]);
    expect(bad.overBudget[0]!.since!).toBeLessThanOrEqual(now);
    expect(bad.measuredMs).toBe(waterfall.stackedMs);
    expect(bad.measuredIsStacked).toBe(true);
    expect(bad.trend.length).toBeGreaterThan(200);
    expect(good.overBudget).toEqual([]);
    expect(good.lowestErrorBudgetRemaining).toBeNull();
    expect(good.sloCount).toBe(0);
  });

  it("asks Prometheus no more for 60 more services: every waterfall and timeline in one question each", async () => {
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")), { ttlMs: 0 });
    const now = Math.floor(Date.now() / 1000) - 2;
    await service("one", 100);
    await getStatusBoard({ db, prom, now }); // the alerts' rules are read once, then kept
    const before = prom.requestCount;
    const small = await getStatusBoard({ db, prom, now });
    const forSmall = prom.requestCount - before;
    const tag = randomUUID().slice(0, 6);
    for (let i = 0; i < 60; i++)
      await createService({
        db,
        actor,
        input: {
          slug: `st-many-${tag}-${i}`,
          name: `Many ${i}`,
          stages: [
            {
              name: "Generate",
              components: ["a", "b", "c"].map((c) => ({
                name: c,
                budgetMs: { p50: null, p95: 100, p99: null },
                source: { ...slow, matchers: { component: `many-${tag}-${i}-${c}` } },
              })),
            },
          ],
        },
      });
    // Sources saved without a kind whose series have no data yet ask once what their metric is
    // (kept 10 minutes per metric and matchers, whatever the number of services): the board after that.
    await getStatusBoard({ db, prom, now });
    const between = prom.requestCount;
    const large = await getStatusBoard({ db, prom, now });
    expect(large.services.length).toBe(small.services.length + 60);
    // The range question over 180 more sources is long (it goes as a form): answered all the same.
    expect(large.services.every((s) => s.error === null)).toBe(true);
    expect(prom.requestCount - between).toBe(forSmall);
  });

  it("tells a service whose SLOs have no data from one with no SLO (runs last: it adds an SLO)", async () => {
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")), { ttlMs: 0 });
    const slug = await service("unmeasured", 4000);
    const now = Math.floor(Date.now() / 1000) - 2;
    const before = (await getStatusBoard({ db, prom, now })).services.find((s) => s.slug === slug)!;
    expect(before).toMatchObject({ sloCount: 0, lowestErrorBudgetRemaining: null });
    // An SLO on a histogram Prometheus has no series of.
    await createSlo({
      db,
      actor,
      slug,
      input: {
        name: "Nothing measured",
        source: { preset: "custom", metric: "no_such_latency_seconds", matchers: {} },
        thresholdMs: 700,
        objective: 0.99,
        windowDays: 7,
      },
    });
    const after = (await getStatusBoard({ db, prom, now })).services.find((s) => s.slug === slug)!;
    expect(after).toMatchObject({ sloCount: 1, lowestErrorBudgetRemaining: null });
  });
});
