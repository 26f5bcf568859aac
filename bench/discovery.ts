// Discovery against a Prometheus holding 100,000 series: 200 histograms × 20 label sets × 22
// series (20 buckets, _count, _sum), plus one histogram spread over 550 pods. Prints, from one run:
// the time discovery takes against the naive way to list label values (every `_count` series
// through /api/v1/series), the size of its answer, and the memory it holds while it runs.
import { createServer } from "node:http";
import { createPrometheusClient } from "../lib/prometheus/client";
import { systemActor } from "../lib/services/actor";
import { discoverHistograms } from "../lib/services/discovery";
import { startPrometheus } from "../scripts/stack/prometheus";
import { median } from "./measure";

type Row = { name: string; value: string; target: string; met: boolean };

const HISTOGRAMS = 200;
const LABEL_SETS = 20;
const BIG_PODS = 550;
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];

/** The exposition text, built once: every value is constant, which is all discovery needs. */
function exposition(): { text: string; series: number } {
  const lines: string[] = [];
  let series = 0;
  const histogram = (name: string, labelSets: string[]) => {
    lines.push(`# HELP ${name} Synthetic latency.`, `# TYPE ${name} histogram`);
    for (const labels of labelSets) {
      BOUNDS.forEach((b, i) => lines.push(`${name}_bucket{${labels},le="${b}"} ${(i + 1) * 10}`));
      lines.push(
        `${name}_bucket{${labels},le="+Inf"} 200`,
        `${name}_count{${labels}} 200`,
        `${name}_sum{${labels}} 50`,
      );
      series += BOUNDS.length + 3;
    }
  };
  for (let h = 0; h < HISTOGRAMS; h++)
    histogram(
      `bench_stage_${h}_duration_seconds`,
      Array.from({ length: LABEL_SETS }, (_, i) => `service="svc-${i % 5}",route="/r${i}"`),
    );
  histogram(
    "bench_big_request_duration_seconds",
    Array.from({ length: BIG_PODS }, (_, i) => `pod="pod-${i}"`),
  );
  return { text: `${lines.join("\n")}\n`, series };
}

/** Peak resident memory above the start while `run` runs, sampled every 5 ms. */
async function peakRss<T>(run: () => Promise<T>): Promise<{ result: T; ms: number; peakMb: number }> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const began = performance.now();
  const result = await run();
  const ms = performance.now() - began;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { result, ms, peakMb: (peak - start) / 2 ** 20 };
}

export async function runDiscoveryBench(log: (s: string) => void = console.log): Promise<Row[]> {
  const { text, series } = exposition();
  const server = createServer((_req, res) => {
    res.setHeader("content-type", "text/plain; version=0.0.4");
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const target = `127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const prometheus = await startPrometheus({ targets: [target], scrapeInterval: "10s" });
  try {
    log(`  ${series.toLocaleString("en")} series of ${HISTOGRAMS + 1} histograms; waiting for two scrapes…`);
    const client = createPrometheusClient(prometheus.url, { timeoutMs: 30_000 });
    for (let i = 0; i < 60; i++) {
      const up = await client.query("sum(scrape_samples_scraped)", Math.floor(Date.now() / 1000));
      if (up.status === "success" && (up.samples[0]?.value ?? 0) >= series) break;
      await new Promise((r) => setTimeout(r, 2000));
    }
    await new Promise((r) => setTimeout(r, 11_000));
    const actor = systemActor("bench");
    const discover = () => discoverHistograms({ prom: client, actor, query: {} });
    // The naive way: every `_count` series, to collect label values from (what discovery avoids).
    const naive = async () => {
      const response = await fetch(
        `${prometheus.url}/api/v1/series?${new URLSearchParams({ "match[]": '{__name__=~".+_count"}' })}`,
      );
      return JSON.parse(await response.text()) as { data: unknown[] };
    };
    await discover();
    await naive();
    const ours: { ms: number; peakMb: number; bytes: number; histograms: number; truncated: boolean }[] = [];
    const theirs: { ms: number; peakMb: number; count: number }[] = [];
    for (let i = 0; i < 5; i++) {
      const a = await peakRss(discover);
      ours.push({
        ms: a.ms,
        peakMb: a.peakMb,
        bytes: JSON.stringify(a.result).length,
        histograms: a.result.histograms.length,
        truncated: a.result.truncated,
      });
      const b = await peakRss(naive);
      theirs.push({ ms: b.ms, peakMb: b.peakMb, count: b.result.data.length });
    }
    const ms = median(ours.map((o) => o.ms));
    const naiveMs = median(theirs.map((t) => t.ms));
    const kb = median(ours.map((o) => o.bytes)) / 1024;
    const mb = median(ours.map((o) => o.peakMb));
    const naiveMb = median(theirs.map((t) => t.peakMb));
    log(
      `  discovery: ${ours[0]!.histograms} histograms listed (truncated: ${ours[0]!.truncated}); naive listing: ${theirs[0]!.count.toLocaleString("en")} series`,
    );
    return [
      {
        name: "discovery on 100k series: time",
        value: `median ${ms.toFixed(0)} ms = ${(ms / naiveMs).toFixed(2)} × listing every _count series (${naiveMs.toFixed(0)} ms)`,
        // The naive listing tells less (no metadata, no counts) and grows with every series; discovery
        // reads more and stays bounded, so twice its time is the budget.
        target: "≤ 2 × and ≤ 2000 ms",
        met: ms <= 2 * naiveMs && ms <= 2000,
      },
      {
        name: "discovery on 100k series: answer size",
        value: `${kb.toFixed(0)} KiB for ${ours[0]!.histograms} histograms`,
        target: "≤ 512 KiB",
        met: kb <= 512,
      },
      {
        name: "discovery on 100k series: memory held while it runs",
        value: `peak +${mb.toFixed(1)} MiB RSS = ${(mb / Math.max(naiveMb, 0.1)).toFixed(2)} × the naive listing's +${naiveMb.toFixed(1)} MiB`,
        target: "≤ 64 MiB",
        met: mb <= 64,
      },
    ];
  } finally {
    await prometheus.close();
    await new Promise((resolve) => server.close(resolve));
  }
}
