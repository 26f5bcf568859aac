import { describe, expect, inject, it } from "vitest";
import { histogramQuantile } from "@/lib/domain/histogram";
import { goodAndTotal, resolveThreshold, attainment, burnRate, errorBudgetRemaining } from "@/lib/domain/slo";
import { FIXTURE_COMPONENTS } from "@/test/fixture-exporter";
import { fetchBucketIncreases, fetchBucketRates } from "./buckets";
import { createPrometheusClient } from "./client";
import { selector } from "./promql";

// Against a real Prometheus: the app's percentiles must equal Prometheus's own
// histogram_quantile for the same data, and ratios must equal the fixture's known ones.

const client = createPrometheusClient(inject("prometheusUrl"));
const components = Object.keys(FIXTURE_COMPONENTS);
const sources = components.map((component, i) => ({
  key: String(i),
  source: { metric: "fixture_latency_seconds", matchers: { component } },
}));

async function now(): Promise<number> {
  return Math.floor(Date.now() / 1000) - 1;
}

async function prometheusQuantile(q: number, component: string, time: number): Promise<number | null> {
  const result = await client.query(
    `histogram_quantile(${q}, sum by (le) (rate(${selector("fixture_latency_seconds_bucket", { component })}[30s])))`,
    time,
  );
  if (result.status !== "success") throw new Error(result.error);
  return result.samples[0]?.value ?? null;
}

describe("bucket queries against a real Prometheus", () => {
  it("fetch every component's buckets in one request", async () => {
    const before = client.requestCount;
    const result = await fetchBucketRates(client, sources, { window: "30s", time: await now() });
    expect(client.requestCount - before).toBe(1);
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect([...result.groups.keys()].sort()).toEqual(sources.map((s) => s.key).sort());
  });

  it.each([0.5, 0.9, 0.95, 0.99])("p%s equals Prometheus's histogram_quantile for every component", async (q) => {
    const time = await now();
    const result = await fetchBucketRates(client, sources, { window: "30s", time });
    if (result.status !== "success") throw new Error(result.error);
    for (const [i, component] of components.entries()) {
      const ours = histogramQuantile(q, result.groups.get(String(i))!);
      const theirs = await prometheusQuantile(q, component, time);
      expect(ours.kind, component).not.toBe("none");
      if (ours.kind !== "none") expect(ours.value, `${component} q=${q}`).toBeCloseTo(theirs!, 9);
    }
  });

  it("a stored source whose name cannot be written is left out with a warning, never failing the others", async () => {
    const stored = [...sources, { key: "legacy", source: { metric: "http.server.duration", matchers: {} } }];
    const result = await fetchBucketRates(client, stored, { window: "30s", time: await now() });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect([...result.groups.keys()].sort()).toEqual(sources.map((s) => s.key).sort());
    expect(result.warnings.join(" ")).toMatch(/"http\.server\.duration" cannot be read: Not a metric name/);
    // Alone, it is an error value for that view, not an exception.
    const alone = await fetchBucketIncreases(client, stored.at(-1)!.source, { windows: ["5m"], time: await now() });
    expect(alone).toMatchObject({ status: "error", errorType: "bad_source" });
  });

  it("the hand-computed answers: fast p50 = 0.05 × 5/6 s; slow p95 lies in +Inf, so ≥ 1 s", async () => {
    const result = await fetchBucketRates(client, sources, { window: "30s", time: await now() });
    if (result.status !== "success") throw new Error(result.error);
    const fast = result.groups.get(String(components.indexOf("fast")))!;
    const slow = result.groups.get(String(components.indexOf("slow")))!;
    // fast: 6 of 10 ≤ 0.05; rank 5 → 0.05 × 5/6
    expect(histogramQuantile(0.5, fast)).toMatchObject({ kind: "value" });
    expect((histogramQuantile(0.5, fast) as { value: number }).value).toBeCloseTo((0.05 * 5) / 6, 9);
    // slow: 9 of 10 ≤ 1 s; rank 9.5 is in the +Inf bucket
    expect(histogramQuantile(0.95, slow)).toEqual({ kind: "atLeast", value: 1 });
  });

  it("hostile label values match only their own literal series", async () => {
    for (const [i, component] of components.entries()) {
      const result = await fetchBucketRates(client, [sources[i]!], { window: "30s", time: await now() });
      if (result.status !== "success") throw new Error(`${JSON.stringify(component)}: ${result.error}`);
      expect([...result.groups.keys()], JSON.stringify(component)).toEqual([String(i)]);
      const plain = await client.query(
        `count(${selector("fixture_latency_seconds_bucket", { component })})`,
        await now(),
      );
      if (plain.status !== "success") throw new Error(plain.error);
      // One series per bucket bound (6 + Inf) of exactly this component, never the others'.
      expect(plain.samples[0]?.value, JSON.stringify(component)).toBe(7);
    }
  });

  it("attainment over several windows equals the fixture's 98 % at a 700 ms bound", async () => {
    const windows = ["30s", "1m", "5m"];
    const result = await fetchBucketIncreases(
      client,
      { metric: "fixture_ttft_seconds", matchers: {} },
      { windows, time: await now() },
    );
    if (result.status !== "success") throw new Error(result.error);
    for (const window of windows) {
      const counts = goodAndTotal(result.groups.get(window)!, 0.7);
      expect(attainment(counts), window).toBeCloseTo(0.98, 9);
      expect(burnRate(counts, 0.99), window).toBeCloseTo(2, 6);
      expect(errorBudgetRemaining(counts, 0.99), window).toBeCloseTo(-1, 6);
    }
  });

  it("700 ms on vLLM-like buckets: snapped to 0.5 s gives 80 %, interpolated gives 88 %", async () => {
    const result = await fetchBucketIncreases(
      client,
      { metric: "fixture_vllm_ttft_seconds", matchers: {} },
      { windows: ["1m"], time: await now() },
    );
    if (result.status !== "success") throw new Error(result.error);
    const buckets = result.groups.get("1m")!;
    const bounds = buckets.map((b) => b.upperBound);
    const snapped = resolveThreshold(0.7, bounds, "snap");
    const estimated = resolveThreshold(0.7, bounds, "interpolate");
    expect(snapped).toMatchObject({ mode: "snapped", boundSeconds: 0.5 });
    expect(attainment(goodAndTotal(buckets, snapped.boundSeconds))).toBeCloseTo(0.8, 9);
    expect(estimated.mode).toBe("estimated");
    expect(attainment(goodAndTotal(buckets, estimated.boundSeconds))).toBeCloseTo(0.88, 9);
  });

  it("errors come back as an error value, not an exception", async () => {
    const down = createPrometheusClient("http://127.0.0.1:1", { timeoutMs: 500 });
    expect(await down.query("up", await now())).toMatchObject({ status: "error", errorType: "unreachable" });
    expect(await client.query("sum(", await now())).toMatchObject({ status: "error", errorType: "bad_data" });
  });
});
