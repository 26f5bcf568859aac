import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import { listSloRows } from "@/lib/db/slos";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { coalesce } from "@/lib/prometheus/coalesce";
import { forgetHistogramKinds, knownKind, learnHistogram } from "@/lib/prometheus/kinds";
import { bucketSelector, nativeSelector } from "@/lib/prometheus/promql";
import { MIGRATING_METRIC } from "@/test/fixture-exporter";
import { testUser } from "@/test/actors";
import { getBudget, saveBudget } from "./budgets";
import { createService, getServiceOrThrow } from "./services";
import { createSlo, getSloStatuses } from "./slos";
import { getWaterfall } from "./waterfall";

// A native histogram saved without `kind` (a script, an OpenSLO import, a document older than
// kinds) is read as the native histogram Prometheus has: resolved when saved, and for sources
// stored without it (saved while Prometheus was down), when read. Against a real Prometheus
// scraping the native exporter; the app's figures must equal Prometheus's own.

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const raw = createPrometheusClient(inject("prometheusUrl"));
const actor = testUser("test");
afterAll(() => db.$disconnect());

const METRIC = "fixture_native_latency_seconds";
/** No kind, no unit: as a script or an old document sends it. */
const bare = (component: string) => ({ preset: "custom" as const, metric: METRIC, matchers: { component } });

async function scalar(promql: string, time: number): Promise<number> {
  const result = await raw.query(promql, time);
  if (result.status !== "success") throw new Error(result.error);
  return result.samples[0]!.value;
}

async function service(): Promise<string> {
  const slug = `kinds-${randomUUID().slice(0, 8)}`;
  await createService({ db, actor, input: { slug, name: "Kinds", targetMs: 1000 } });
  return slug;
}

const budgetInput = (version: number) => ({
  version,
  indicator: "TTFT",
  targetMs: 1000,
  quantile: 0.5,
  endToEndSource: null,
  stages: [
    {
      name: "Native",
      components: [
        { name: "fast", budgetMs: { p50: 100, p95: null, p99: null }, source: bare("fast") },
        { name: "slow", budgetMs: { p50: 600, p95: null, p99: null }, source: bare("slow") },
      ],
    },
  ],
});

const sloInput = { name: "Slow", source: bare("slow"), thresholdMs: 700, objective: 0.75, windowDays: 7 };

async function expectWaterfallEqualsPrometheus(slug: string) {
  const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
  const view = await getWaterfall({ db, prom, slug, query: { quantile: "0.5", window: "1m" } });
  expect(view.error).toBeNull();
  for (const [c, component] of ["fast", "slow"].entries()) {
    const theirs = await scalar(`histogram_quantile(0.5, sum(rate(${nativeSelector(bare(component))}[1m])))`, view.at);
    expect(view.stages[0]!.components[c]!.actualMs, component).toBeCloseTo(theirs * 1000, 6);
  }
}

async function expectAttainmentEqualsPrometheus(slug: string) {
  const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
  const [status] = await getSloStatuses({ db, prom, slug, query: { window: "7d" } });
  const fraction = await scalar(
    `histogram_fraction(0, 0.7, sum(increase(${nativeSelector(bare("slow"))}[7d])))`,
    prom.alignTime(Date.now() / 1000),
  );
  // slow: 0.3 s ×5, 0.6 s ×3, 0.8 s, 2 s per tick → 8 of 10 at or under 700 ms, in Prometheus too.
  expect(fraction).toBeCloseTo(0.8, 9);
  expect(status).toMatchObject({ histogramKind: "native", error: null });
  expect(status!.attainment).toBeCloseTo(fraction, 9);
}

describe("a native histogram saved without kind", () => {
  it("PUT budget: the kind is stored, and the waterfall equals Prometheus's histogram_quantile", async () => {
    forgetHistogramKinds();
    const slug = await service();
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
    await saveBudget({ db, prom, actor, slug, input: budgetInput(1) });
    const stored = await getBudget({ db, slug });
    expect(stored.stages[0]!.components.map((c) => c.source?.kind)).toEqual(["native", "native"]);
    // The name says seconds: no unit is stored.
    expect(stored.stages[0]!.components[0]!.source?.unit).toBeUndefined();
    await expectWaterfallEqualsPrometheus(slug);
  });

  it("POST SLO: the kind is stored, and attainment equals Prometheus's histogram_fraction", async () => {
    const slug = await service();
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
    const created = await createSlo({ db, prom, actor, slug, input: sloInput });
    expect(created.source.kind).toBe("native");
    await expectAttainmentEqualsPrometheus(slug);
  });

  it("saved while Prometheus could not be asked: stored without kind, read as native", async () => {
    forgetHistogramKinds();
    const slug = await service();
    await saveBudget({ db, prom: null, actor, slug, input: budgetInput(1) });
    await createSlo({ db, prom: null, actor, slug, input: sloInput });
    expect((await getBudget({ db, slug })).stages[0]!.components[1]!.source?.kind).toBeUndefined();
    const { id } = await getServiceOrThrow({ db, slug });
    expect((await listSloRows(db, id))[0]!.source.kind).toBeUndefined();
    await expectWaterfallEqualsPrometheus(slug);
    await expectAttainmentEqualsPrometheus(slug);
  });

  it("a classic histogram without kind stays classic", async () => {
    const slug = await service();
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
    const created = await createSlo({
      db,
      prom,
      actor,
      slug,
      input: { ...sloInput, source: { preset: "custom", metric: "fixture_latency_seconds", matchers: {} } },
    });
    expect(created.source.kind).toBe("classic");
  });
});

describe("one name, classic on one target and native on another (a move to native histograms)", () => {
  // MIGRATING_METRIC: the fixture exporter writes it classic with exposition="classic", the native
  // exporter native with exposition="native". The kind is learned for the source's matchers.
  const migrating = (exposition: string) => ({
    preset: "custom" as const,
    metric: MIGRATING_METRIC,
    matchers: { exposition },
  });
  const input = (version: number) => ({
    ...budgetInput(version),
    quantile: 0.95,
    stages: [
      {
        name: "Moving",
        components: [
          { name: "classic", budgetMs: { p50: null, p95: 2500, p99: null }, source: migrating("classic") },
          { name: "native", budgetMs: { p50: null, p95: 2500, p99: null }, source: migrating("native") },
        ],
      },
    ],
  });

  async function expectP95EqualsPrometheus(slug: string) {
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
    const view = await getWaterfall({ db, prom, slug, query: { quantile: "0.95", window: "1m" } });
    expect(view.error).toBeNull();
    const [classic, native] = view.stages[0]!.components;
    const theirNative = await scalar(
      `histogram_quantile(0.95, sum(rate(${nativeSelector(migrating("native"))}[1m])))`,
      view.at,
    );
    const theirClassic = await scalar(
      `histogram_quantile(0.95, sum by (le) (rate(${bucketSelector(migrating("classic"))}[1m])))`,
      view.at,
    );
    // Both observe FIXTURE_COMPONENTS.slow: p95 is inside (0.8 s, 2 s] for both.
    expect(theirNative).toBeGreaterThan(0.8);
    expect(native!.actualMs).toBeCloseTo(theirNative * 1000, 6);
    expect(classic!.actualMs).toBeCloseTo(theirClassic * 1000, 6);
  }

  it("PUT budget without kind: each source is stored as the kind its own series are", async () => {
    forgetHistogramKinds();
    const slug = await service();
    const prom = coalesce(createPrometheusClient(inject("prometheusUrl")));
    await saveBudget({ db, prom, actor, slug, input: input(1) });
    const stored = await getBudget({ db, slug });
    expect(stored.stages[0]!.components.map((c) => c.source?.kind)).toEqual(["classic", "native"]);
    await expectP95EqualsPrometheus(slug);
  });

  it("stored without kind: the native one is read as native when its classic read is empty", async () => {
    forgetHistogramKinds();
    const slug = await service();
    await saveBudget({ db, prom: null, actor, slug, input: input(1) });
    expect((await getBudget({ db, slug })).stages[0]!.components.map((c) => c.source?.kind)).toEqual([
      undefined,
      undefined,
    ]);
    await expectP95EqualsPrometheus(slug);
    // Learned now: the second read asks nothing more and answers the same.
    await expectP95EqualsPrometheus(slug);
  });

  it("learnHistogram answers per matchers, in any order", async () => {
    forgetHistogramKinds();
    expect((await learnHistogram(raw, MIGRATING_METRIC, { exposition: "native" })).kind).toBe("native");
    expect((await learnHistogram(raw, MIGRATING_METRIC, { exposition: "classic" })).kind).toBe("classic");
    expect((await learnHistogram(raw, MIGRATING_METRIC)).kind).toBe("classic");
    expect(knownKind(raw, MIGRATING_METRIC, { exposition: "native" })).toBe("native");
  });
});
