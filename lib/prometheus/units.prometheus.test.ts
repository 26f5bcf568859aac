import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { histogramQuantile, type Bucket } from "@/lib/domain/histogram";
import type { MetricSource } from "@/lib/domain/budget";
import { checkUnit } from "@/lib/domain/units";
import { FIXTURE_VLLM_MODEL, MISLABELLED_MS_METRIC } from "@/test/fixture-exporter";
import { evaluateSlo } from "@/lib/domain/slo";
import { nativeBucketIndex, SIGNED_SHAPES } from "@/test/native-exporter";
import { fetchBucketIncreases, fetchBucketRates, fetchLeValues } from "./buckets";
import { createPrometheusClient } from "./client";
import { scalarExprs } from "./kpis";
import { nativeSelector, selector } from "./promql";
import { buildRuleGroups, quantileExpr, renderRules } from "./rules";
import { countSloThreshold, goodRateExpr, totalRateExpr } from "./sli";

// Telemetry as teams have it, against a real Prometheus started with native histograms on: a
// millisecond histogram (the OTel spanmetrics connector's default) and native histograms in
// seconds and milliseconds. The app's figure must equal Prometheus's own in every unit.

const client = createPrometheusClient(inject("prometheusUrl"));
const WINDOW = "30s";
const now = () => Math.floor(Date.now() / 1000) - 1;
/** A time whose scrapes are surely stored on a busy machine: quantiles at a bucket's edge flip otherwise. */
const settled = () => now() - 2;

async function scalar(promql: string, time: number): Promise<number | null> {
  const result = await client.query(promql, time);
  if (result.status !== "success") throw new Error(`${result.error}: ${promql}`);
  return result.samples[0]?.value ?? null;
}

async function bucketsOf(source: MetricSource, time: number): Promise<Bucket[]> {
  const result = await fetchBucketRates(client, [{ key: "x", source }], { window: WINDOW, time });
  if (result.status !== "success") throw new Error(result.error);
  return result.groups.get("x") ?? [];
}

const msOf = (q: number, buckets: Bucket[]) => {
  const estimate = histogramQuantile(q, buckets);
  if (estimate.kind === "none") throw new Error(`no estimate: ${estimate.reason}`);
  return estimate.value * 1000;
};

const spans = (span_name: string): MetricSource => ({
  preset: "otel-spanmetrics",
  metric: "traces_span_metrics_duration_milliseconds",
  matchers: { span_name },
});
const native = (metric: string, component: string): MetricSource => ({
  preset: "custom",
  metric,
  matchers: { component },
  kind: "native",
});

describe("a millisecond histogram (spanmetrics)", () => {
  it.each([0.5, 0.9, 0.95, 0.99])("p%s in ms equals Prometheus's histogram_quantile on the ms histogram", async (q) => {
    const time = now();
    for (const span of ["retrieve", "generate"]) {
      const ours = msOf(q, await bucketsOf(spans(span), time));
      const theirs = await scalar(
        `histogram_quantile(${q}, sum by (le) (rate(${selector("traces_span_metrics_duration_milliseconds_bucket", { span_name: span })}[${WINDOW}])))`,
        time,
      );
      expect(ours, `${span} q=${q}`).toBeCloseTo(theirs!, 6);
    }
  });

  it("hand-computed: retrieve p50 = 50 ms × 5/6 (6 of 10 under 50 ms), not 1000 × that", async () => {
    expect(msOf(0.5, await bucketsOf(spans("retrieve"), now()))).toBeCloseTo((50 * 5) / 6, 6);
  });

  it("reads the unit from the name, and an explicit unit overrides it", async () => {
    const time = now();
    const asSeconds = msOf(0.5, await bucketsOf({ ...spans("retrieve"), unit: "seconds" }, time));
    expect(asSeconds).toBeCloseTo(((50 * 5) / 6) * 1000, 3);
  });

  it('an SLO threshold of 700 ms is the bucket le="700", counted exactly', async () => {
    const counted = await countSloThreshold(
      client,
      { source: spans("generate"), thresholdMs: 700, thresholdMode: "snap" },
      now(),
    );
    expect(counted.mode).toBe("exact");
    expect(counted.terms).toEqual([{ le: "700", weight: 1 }]);
    const time = now();
    const good = await scalar(goodRateExpr(spans("generate"), counted, WINDOW), time);
    const total = await scalar(totalRateExpr(spans("generate"), WINDOW), time);
    // generate: 0.3 ×5, 0.6 ×3, 0.8, 2.0 (in s) → 8 of 10 at or under 700 ms
    expect(good! / total!).toBeCloseTo(0.8, 9);
  });

  it("the budget alert's expression is in seconds, like humanizeDuration expects", async () => {
    const time = now();
    const inRule = await scalar(quantileExpr(spans("retrieve"), 0.5), time);
    const fromBuckets = msOf(0.5, await bucketsOf(spans("retrieve"), time));
    expect(inRule! * 1000).toBeCloseTo(fromBuckets, 0);
  });

  it("le bounds come back in seconds whatever the histogram's unit", async () => {
    const le = await fetchLeValues(client, spans("retrieve"), now());
    if (le.status !== "success") throw new Error(le.error);
    expect(le.bounds.find((b) => b.le === "700")?.seconds).toBe(0.7);
  });
});

describe.each([
  ["fixture_native_latency_seconds", 1000],
  ["fixture_native_duration_milliseconds", 1],
])("a native histogram (%s)", (metric, msPerUnit) => {
  it.each([0.5, 0.9, 0.95, 0.99])("p%s equals Prometheus's histogram_quantile (no le)", async (q) => {
    // p90 of "fast" is rank 9 of 10, a bucket's edge: both answers must read the same scrapes.
    const time = settled();
    for (const component of ["fast", "slow"]) {
      const ours = msOf(q, await bucketsOf(native(metric, component), time));
      const theirs = await scalar(
        `histogram_quantile(${q}, sum(rate(${nativeSelector({ metric, matchers: { component } })}[${WINDOW}])))`,
        time,
      );
      expect(ours, `${component} q=${q}`).toBeCloseTo(theirs! * msPerUnit, 6);
    }
  });

  it("a native source is invisible to _bucket queries, found as kind native", async () => {
    const time = now();
    const asClassic = await bucketsOf({ ...native(metric, "slow"), kind: "classic" }, time);
    expect(asClassic).toEqual([]);
    expect((await bucketsOf(native(metric, "slow"), time)).length).toBeGreaterThan(3);
  });

  it("an SLO threshold anywhere is counted by histogram_fraction: 700 ms → 8 of 10 slow requests", async () => {
    const source = native(metric, "slow");
    const counted = await countSloThreshold(client, { source, thresholdMs: 700, thresholdMode: "snap" }, now());
    expect(counted.mode).toBe("fraction");
    expect(counted.fractionUpTo).toBe(700 / msPerUnit);
    const time = now();
    const good = await scalar(goodRateExpr(source, counted, WINDOW), time);
    const total = await scalar(totalRateExpr(source, WINDOW), time);
    expect(good! / total!).toBeCloseTo(0.8, 9);
  });

  it("increases over several windows, one query each, agree with the rate view", async () => {
    const result = await fetchBucketIncreases(client, native(metric, "fast"), { windows: ["20s", "30s"], time: now() });
    if (result.status !== "success") throw new Error(result.error);
    // fast: 0.03 s ×6, 0.08 s ×3, 0.15 s → rank 5 of 10 is 5/6 into the schema-3 bucket that holds
    // 30 ms: (2^-5.125, 2^-5] s on the seconds histogram, (2^4.875, 2^5] ms on the ms one
    const index = nativeBucketIndex(30 / msPerUnit);
    const [lower, upper] = [2 ** ((index - 1) / 8) * msPerUnit, 2 ** (index / 8) * msPerUnit];
    for (const window of ["20s", "30s"])
      expect(msOf(0.5, result.groups.get(window)!), window).toBeCloseTo(lower + ((upper - lower) * 5) / 6, 6);
  });

  it("the budget alert's expression is in seconds", async () => {
    const time = now();
    const inRule = await scalar(quantileExpr(native(metric, "slow"), 0.95), time);
    const fromBuckets = msOf(0.95, await bucketsOf(native(metric, "slow"), time));
    expect(inRule! * 1000).toBeCloseTo(fromBuckets, 3);
  });
});

describe("native histograms with negative observations or only a zero bucket (zero bucket ±1 ms)", () => {
  const signed = (shape: string): MetricSource => ({
    preset: "custom",
    metric: "fixture_signed_latency_seconds",
    matchers: { shape },
    kind: "native",
  });

  it.each(Object.keys(SIGNED_SHAPES))("%s: every quantile equals Prometheus's histogram_quantile", async (shape) => {
    const time = settled();
    const buckets = await bucketsOf(signed(shape), time);
    // Not at a bucket's edge (signed: ranks 1, 4, 5 and 8 of 10), where float noise in a rate decides.
    for (const q of [0.05, 0.25, 0.3, 0.6, 0.75, 0.9, 0.95, 0.99]) {
      const theirs = await scalar(
        `histogram_quantile(${q}, sum(rate(${nativeSelector(signed(shape))}[${WINDOW}])))`,
        time,
      );
      expect(msOf(q, buckets), `${shape} q=${q}`).toBeCloseTo(theirs! * 1000, 9);
    }
    // Known answers: p25 is −0.5 ms on the zero bucket alone, inside (−52.6, −48.2] ms when signed.
    if (shape === "zero") expect(msOf(0.25, buckets)).toBeCloseTo(-0.5, 9);
    else expect(msOf(0.25, buckets)).toBeLessThan(-48);
  });

  it.each(Object.keys(SIGNED_SHAPES))(
    "%s: the SLO page's share equals the recording rule's (histogram_fraction from 0)",
    async (shape) => {
      const time = settled();
      const source = signed(shape);
      for (const thresholdMs of [0.5, 40, 700]) {
        const counted = await countSloThreshold(client, { source, thresholdMs, thresholdMode: "snap" }, time);
        const rule =
          (await scalar(goodRateExpr(source, counted, WINDOW), time))! /
          (await scalar(totalRateExpr(source, WINDOW), time))!;
        const increases = await fetchBucketIncreases(client, source, { windows: [WINDOW], time });
        if (increases.status !== "success") throw new Error(increases.error);
        const page = evaluateSlo(
          { kind: "native", thresholdMs, thresholdMode: "interpolate", objective: 0.9, windowDays: 28 },
          WINDOW,
          increases.groups,
        );
        expect(page?.attainment, `${shape} ${thresholdMs} ms`).toBeCloseTo(rule, 9);
      }
      // Known answers: the zero bucket alone is half above 0; signed, 3.5 of 10 are in (0, 40 ms].
      const share = await scalar(`histogram_fraction(0, 0.04, sum(rate(${nativeSelector(source)}[${WINDOW}])))`, time);
      expect(share).toBeCloseTo(shape === "zero" ? 0.5 : 0.35, 9);
    },
  );
});

describe("a _milliseconds histogram whose bounds are in seconds", () => {
  const mislabelled: MetricSource = { preset: "custom", metric: MISLABELLED_MS_METRIC, matchers: {} };

  it('read as its name says, 700 ms is above every bound (~100 %); read in seconds, le="0.7" counts 8 of 10', async () => {
    const time = settled();
    const asNamed = await countSloThreshold(
      client,
      { source: mislabelled, thresholdMs: 700, thresholdMode: "snap" },
      time,
    );
    expect(asNamed.terms).toEqual([{ le: "1", weight: 1 }]);
    const le = await fetchLeValues(client, mislabelled, time);
    if (le.status !== "success") throw new Error(le.error);
    expect(
      checkUnit(
        le.bounds.map((b) => b.seconds * 1000),
        "milliseconds",
      )?.suggestedUnit,
    ).toBe("seconds");

    const inSeconds = { ...mislabelled, unit: "seconds" as const };
    const counted = await countSloThreshold(
      client,
      { source: inSeconds, thresholdMs: 700, thresholdMode: "snap" },
      time,
    );
    expect(counted).toMatchObject({ mode: "exact", terms: [{ le: "0.7", weight: 1 }] });
    const good = await scalar(goodRateExpr(inSeconds, counted, WINDOW), time);
    const total = await scalar(totalRateExpr(inSeconds, WINDOW), time);
    expect(good! / total!).toBeCloseTo(0.8, 9);
    // Its p50 in ms equals Prometheus's answer in seconds × 1000.
    const theirs = await scalar(
      `histogram_quantile(0.5, sum by (le) (rate(${MISLABELLED_MS_METRIC}_bucket[${WINDOW}])))`,
      time,
    );
    expect(msOf(0.5, await bucketsOf(inSeconds, time))).toBeCloseTo(theirs! * 1000, 6);
  });
});

describe("vLLM's error rate", () => {
  it("counts finished_reason abort and error as failures: 3 of 18, not 1 of 18", async () => {
    const exprs = scalarExprs({ model_name: FIXTURE_VLLM_MODEL }, WINDOW, null);
    const rate = await scalar(exprs.errorRate!, now());
    expect(rate).toBeCloseTo(3 / 18, 9);
  });
});

describe("rules for millisecond and native histograms", () => {
  const spec = (name: string, source: MetricSource, counted: Awaited<ReturnType<typeof countSloThreshold>>) => ({
    name,
    indicator: "Generate",
    source,
    thresholdMs: 700,
    objective: 0.75,
    windowDays: 28,
    windowKind: "rolling" as const,
    calendarUnit: null,
    timeZone: "UTC",
    budgetingMethod: "occurrences" as const,
    timesliceMinutes: null,
    timesliceTarget: null,
    counted,
  });

  it("pass promtool, and their recorded good/total equal the known share (8 of 10 under 700 ms)", async () => {
    const time = now();
    const msSource = spans("generate");
    const nativeSource = native("fixture_native_latency_seconds", "slow");
    const service = {
      slug: "units",
      name: "Units",
      budget: {
        indicator: "TTFT",
        targetMs: 700,
        quantile: 0.95,
        endToEndSource: msSource,
        stages: [
          {
            name: "Native",
            components: [{ name: "slow", budgetMs: { p50: null, p95: 500, p99: null }, source: nativeSource }],
          },
        ],
      },
      slos: [
        spec(
          "ms",
          msSource,
          await countSloThreshold(client, { ...spec("x", msSource, null as never), thresholdMode: "snap" }, time),
        ),
        spec(
          "native",
          nativeSource,
          await countSloThreshold(client, { ...spec("x", nativeSource, null as never), thresholdMode: "snap" }, time),
        ),
      ],
    };
    const groups = buildRuleGroups([service], { dashboardUrl: "http://localhost:3000", componentFor: "5m" });
    const text = renderRules(groups, "prometheus", "units");
    const dir = mkdtempSync(join(tmpdir(), "lb-units-rules-"));
    writeFileSync(join(dir, "rules.yaml"), text);
    const checked = spawnSync(
      process.env.PROMTOOL_BIN ?? "/usr/bin/promtool",
      ["check", "rules", join(dir, "rules.yaml")],
      {
        encoding: "utf8",
      },
    );
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    for (const group of groups.filter((g) => g.name.includes("/slo/"))) {
      const rule = (record: string) =>
        (group.rules.find((r) => "record" in r && r.record === record) as { expr: string }).expr.replaceAll(
          "[5m]",
          `[${WINDOW}]`,
        );
      const good = await scalar(rule("latency_budgets:slo_good:rate5m"), time);
      const total = await scalar(rule("latency_budgets:slo_total:rate5m"), time);
      expect(good! / total!, group.name).toBeCloseTo(0.8, 9);
    }
    // The budget alert on the native component reads its p95 in seconds: over 500 ms, so it fires.
    const alert = groups.flatMap((g) => g.rules).find((r) => "alert" in r && r.alert === "ComponentOverBudget") as {
      expr: string;
    };
    expect(alert.expr).toContain("> 0.5");
    expect(await scalar(alert.expr.replaceAll("[5m]", `[${WINDOW}]`), time)).toBeGreaterThan(0.5);
  });
});
