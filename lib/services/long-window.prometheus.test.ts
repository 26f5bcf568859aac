import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import { evaluateSlo } from "@/lib/domain/slo";
import { fetchBucketIncreases } from "@/lib/prometheus/buckets";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { coalesce } from "@/lib/prometheus/coalesce";
import { backfillRecordingRules, startBackfilledPrometheus } from "@/scripts/stack/backfill";
import type { PrometheusServer } from "@/scripts/stack/prometheus";
import { getRulesFile } from "./rules";
import { createService } from "./services";
import { getSloHistory } from "./slo-history";
import { createSlo, getSloStatuses } from "./slos";
import { testUser } from "@/test/actors";

// Eight days of history in a real Prometheus (promtool backfill), with the generated recording
// rules backfilled over it and loaded: long windows read from recorded series must agree with raw
// buckets, and timeslices and calendar periods must give the hand-computed answers.

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const actor = testUser("test");
const slug = `lw-${randomUUID().slice(0, 8)}`;
const MINUTE = 60;
// A minute before a 2-hour block boundary, so the recording rules' backfill starts in the last
// minute of a TSDB block: the start where promtool backfills nothing unless told otherwise.
const end = Math.floor(Date.now() / 1000 / 7200) * 7200 - MINUTE;
const start = end - 8 * 86400;
// Six slow hours two days ago, on hour boundaries: half the requests over 500 ms instead of 1 in 60.
const slowFrom = Math.floor((end - 2 * 86400) / 3600) * 3600;
const slowTo = slowFrom + 6 * 3600;
const source = { preset: "custom", metric: "lw_latency_seconds", matchers: { service: slug } };
let prometheus: PrometheusServer;

const share = (bound: number, t: number) => {
  const slow = t > slowFrom && t <= slowTo;
  if (bound >= 1) return 1;
  if (bound >= 0.5) return slow ? 0.5 : 59 / 60;
  return slow ? 0.2 : 0.6;
};

async function slo(input: Record<string, unknown>) {
  return createSlo({ db, actor, slug, input: { source, thresholdMs: 500, objective: 0.99, ...input } });
}

beforeAll(async () => {
  await createService({ db, actor, input: { slug, name: "Long windows", stages: [] } });
  await slo({ name: "Seven days", windowDays: 7 });
  await slo({
    name: "Hourly slices",
    windowDays: 7,
    budgetingMethod: "timeslices",
    timesliceMinutes: 60,
    timesliceTarget: 0.95,
  });
  await slo({ name: "This week", windowKind: "calendar", calendarUnit: "week", timeZone: "UTC" });
  const dir = mkdtempSync(join(tmpdir(), "lb-long-"));
  const { text } = await getRulesFile({ db, prom: null, slug, dashboardUrl: "http://lb.test" });
  writeFileSync(join(dir, "rules.yaml"), text);
  writeFileSync(join(dir, "recording.yaml"), backfillRecordingRules(text));
  prometheus = await startBackfilledPrometheus({
    dir: join(dir, "prometheus"),
    histograms: [
      {
        metric: "lw_latency_seconds",
        bounds: [0.25, 0.5, 1, 2.5],
        instances: [{ service: slug, instance: "a" }],
        requestsPerStep: 60,
        shareUnder: share,
      },
    ],
    range: { start, end, stepSeconds: MINUTE },
    recordingRules: join(dir, "recording.yaml"),
    ruleFiles: [join(dir, "rules.yaml")],
    evaluationInterval: "1m",
  });
}, 180_000);

afterAll(async () => {
  await prometheus?.close();
  await db.$disconnect();
});

describe("long windows against a backfilled Prometheus", () => {
  // The window splits at UTC midnights into a part-day, whole days and a part-day. A minute on
  // either side of midnight leaves a part-day of one minute: one evaluation, which promtool's
  // backfill drops at a block's edge when the group's offset puts it in the block's last second.
  const DAY = 86400;
  it.each([
    ["now", end],
    ["a minute before midnight", Math.floor((end + MINUTE) / DAY) * DAY - MINUTE],
    ["a minute after midnight", Math.floor(end / DAY) * DAY + MINUTE],
  ])("a 7-day SLO reads the recorded series, within 0.1 %% of the raw answer (%s)", async (_, at) => {
    const prom = coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 20_000 }));
    const statuses = await getSloStatuses({ db, prom, slug, query: { window: "7d" }, now: at });
    const seven = statuses.find((s) => s.name === "Seven days")!;
    expect(seven.dataPath.kind, seven.dataPath.note).toBe("recorded");
    const raw = await fetchBucketIncreases(prom, source, { windows: ["7d"], time: at });
    expect(raw.status).toBe("success");
    const rawEvaluation = evaluateSlo(
      { ...seven, thresholdMode: seven.thresholdPreference },
      "7d",
      raw.status === "success" ? raw.groups : new Map(),
    )!;
    const rawAttainment = rawEvaluation.attainment!;
    // By hand: 10,080 minutes × 60 requests; 1 in 60 slow except 360 minutes at 30 in 60.
    const expected = 1 - (360 * 30 + (10_080 - 360) * 1) / (10_080 * 60);
    expect(rawAttainment).toBeCloseTo(expected, 3);
    expect(Math.abs(seven.attainment! - rawAttainment)).toBeLessThan(0.001);
    // Whole days from the recorded 1-day rates plus the part-days from 5-minute rates: the same count.
    expect(seven.total! / rawEvaluation.total).toBeCloseTo(1, 2);
  });

  it("timeslices count the six slow hours as six bad slices of 168", async () => {
    const prom = coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 20_000 }));
    const statuses = await getSloStatuses({ db, prom, slug, now: end });
    const slices = statuses.find((s) => s.name === "Hourly slices")!;
    expect(slices.unit).toBe("slices");
    expect(slices.error).toBeNull();
    expect(slices.total).toBe(168);
    expect(slices.good).toBe(slices.total! - 6);
    expect(slices.attainment).toBeCloseTo((slices.total! - 6) / slices.total!, 9);
  });

  it("an hour of five-minute slices is 12 slices: 3 slow ones burn 25×, on Prometheus 2.x as on 3.x", async () => {
    // Created after Prometheus loaded the rules, so it reads raw buckets. A quarter of an hour
    // into the slow hours the slices ending at +5, +10 and +15 minutes are bad (half the requests
    // over 500 ms) and the nine before them good (59 in 60): 9/12 = 75 % over the last hour, a
    // burn of 25 against a 1 % budget. A subquery [1h:5m] on Prometheus 2.x also counts the slice
    // ending at t − 1 h: 10/13, a burn of 23.1.
    await slo({
      name: "Five-minute slices",
      windowDays: 7,
      budgetingMethod: "timeslices",
      timesliceMinutes: 5,
      timesliceTarget: 0.95,
    });
    const prom = coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 20_000 }));
    const during = await getSloStatuses({ db, prom, slug, now: slowFrom + 15 * MINUTE });
    const slices = during.find((s) => s.name === "Five-minute slices")!;
    expect(slices.error).toBeNull();
    expect(slices.dataPath.kind).toBe("raw");
    expect(slices.burnRates["1h"]).toBeCloseTo(0.25 / 0.01, 9);
    // Seven days are 2016 slices, not 2017; the six slow hours are 72 of them.
    const after = (await getSloStatuses({ db, prom, slug, now: end })).find((s) => s.name === "Five-minute slices")!;
    expect([after.good, after.total]).toEqual([2016 - 72, 2016]);
  });

  it("SLO history: each point is the status as of its time, the last the status now, from the recorded series", async () => {
    const prom = coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 20_000 }));
    const statuses = await getSloStatuses({ db, prom, slug, now: end });
    const seven = statuses.find((s) => s.name === "Seven days")!;
    const history = await getSloHistory({ db, prom, slug, id: seven.id, query: { range: "1d" }, now: end });
    expect(history.error).toBeNull();
    expect(history.dataPath?.kind).toBe("recorded");
    expect(history.points).toHaveLength(48);
    const last = history.points.at(-1)!;
    expect(last.at).toBe(prom.alignTime(end));
    expect(last.attainment).toBe(seven.attainment);
    expect(last.errorBudgetRemaining).toBe(seven.errorBudgetRemaining);
    expect(last.burnRates).toEqual(seven.burnRates);
    // A point in the middle is the status asked for at that time.
    const middle = history.points[20]!;
    const then = (await getSloStatuses({ db, prom, slug, query: { at: String(middle.at) }, now: end })).find(
      (s) => s.name === "Seven days",
    )!;
    expect(middle.errorBudgetRemaining).toBe(then.errorBudgetRemaining);
    // A 7-day SLO alerts at Sloth's burn rates.
    expect(history.thresholds.map((t) => t.factor)).toEqual([13.44, 3.5, 1.4, 0.98]);
  });

  it("a calendar week counts from Monday 00:00 in its zone", async () => {
    const prom = coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 20_000 }));
    const statuses = await getSloStatuses({ db, prom, slug, now: end });
    const week = statuses.find((s) => s.name === "This week")!;
    const monday = new Date(end * 1000);
    monday.setUTCHours(0, 0, 0, 0);
    monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
    expect(week.window).toBe("period");
    expect(week.periodStart).toBe(monday.toISOString());
    expect(week.windowDays).toBe(7);
    const minutes = Math.floor((end - monday.getTime() / 1000) / 60);
    if (minutes < 30) return; // just after midnight on a Monday: too few requests to compare
    expect(week.total! / (minutes * 60)).toBeGreaterThan(0.98);
    expect(week.total! / (minutes * 60)).toBeLessThan(1.02);
  });
});
