import { execFile } from "node:child_process";
import { createWriteStream, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { startPrometheus, type PrometheusServer } from "./prometheus";

// A Prometheus with history: synthetic histogram data written as OpenMetrics and turned into TSDB
// blocks by promtool (create-blocks-from openmetrics), then recording rules evaluated over that
// history by promtool (create-blocks-from rules), then Prometheus restarted with the rules loaded.
// The long-window tests and the benchmark use it; nothing here is a stand-in for Prometheus.

const run = promisify(execFile);
export const PROMTOOL_BIN = process.env.PROMTOOL_BIN ?? "/usr/bin/promtool";

export type SyntheticHistogram = {
  metric: string;
  /** Upper bounds in seconds, without +Inf. */
  bounds: number[];
  /** One label set per instance; each gets its own _bucket, _count and _sum series. */
  instances: Record<string, string>[];
  /** Requests per instance per step, and the share of them under each bound at time t (seconds). */
  requestsPerStep: number;
  shareUnder: (bound: number, t: number) => number;
};

function labels(set: Record<string, string>): string {
  return Object.entries(set)
    .map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`)
    .join(",");
}

/** promtool cuts blocks on 2-hour boundaries and reads its whole input once per block. */
const BLOCK_SECONDS = 7200;

type Series = { name: string; value: (t: number, n: number) => number };

function seriesOf(h: SyntheticHistogram): Series[][] {
  return h.instances.map((instance) => [
    ...[...h.bounds.map(String), "+Inf"].map((le, i) => ({
      name: `${h.metric}_bucket{${labels({ ...instance, le })}}`,
      value: (t: number, n: number) => (i < h.bounds.length ? Math.round(n * h.shareUnder(h.bounds[i]!, t)) : n),
    })),
    { name: `${h.metric}_count{${labels(instance)}}`, value: (_t: number, n: number) => n },
    { name: `${h.metric}_sum{${labels(instance)}}`, value: (_t: number, n: number) => n * 0.3 },
  ]);
}

/**
 * OpenMetrics text for the histograms, one file per 2-hour block (so promtool's per-block passes
 * each read only their own block), series after series, oldest sample first. Counters are
 * cumulative across files. Returns the files and the number of samples.
 */
export async function writeOpenMetrics(
  dir: string,
  histograms: SyntheticHistogram[],
  range: { start: number; end: number; stepSeconds: number },
): Promise<{ files: string[]; samples: number }> {
  mkdirSync(dir, { recursive: true });
  const all = histograms.map((h) => ({ h, series: seriesOf(h).flat() }));
  const totals = all.map(({ series }) => series.map(() => 0));
  const files: string[] = [];
  let samples = 0;
  for (let from = range.start; from <= range.end;) {
    const to = Math.min(range.end, (Math.floor(from / BLOCK_SECONDS) + 1) * BLOCK_SECONDS - range.stepSeconds);
    const file = join(dir, `${String(files.length).padStart(5, "0")}.om`);
    const out = createWriteStream(file);
    const write = (text: string) =>
      out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once("drain", () => resolve()));
    for (const [hi, { h, series }] of all.entries()) {
      await write(`# TYPE ${h.metric} histogram\n`);
      for (const [si, s] of series.entries()) {
        let lines = "";
        let value = totals[hi]![si]!;
        for (let t = from; t <= to; t += range.stepSeconds) {
          value += s.value(t, h.requestsPerStep);
          lines += `${s.name} ${Number(value.toFixed(3))} ${t}\n`;
          samples++;
        }
        totals[hi]![si] = value;
        await write(lines);
      }
    }
    await write("# EOF\n");
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    files.push(file);
    from = to + range.stepSeconds;
  }
  return { files, samples };
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/**
 * The recording rules the long-window path reads, for promtool to backfill: the 5-minute good and
 * total rates every minute, the 1-day ones every hour (the app reads each day's rate with
 * last_over_time over an hour, so hourly history is enough, and 24 × fewer 1-day evaluations keep
 * the backfill fast). promtool cannot backfill rules that read other recorded series.
 */
export function backfillRecordingRules(ruleFile: string): string {
  type Group = { name: string; rules: { record?: string }[] };
  const groups = (parse(ruleFile) as { groups: Group[] }).groups;
  const pick = (re: RegExp) => groups.flatMap((g) => g.rules.filter((r) => re.test(r.record ?? "")));
  return stringify({
    groups: [
      { name: "rate5m", rules: pick(/^latency_budgets:slo_(good|total):rate5m$/) },
      { name: "rate1d", interval: "1h", rules: pick(/^latency_budgets:slo_(good|total):rate1d$/) },
    ].filter((g) => g.rules.length),
  });
}

async function moveBlocks(from: string, to: string): Promise<number> {
  let moved = 0;
  for (const name of readdirSync(from)) {
    if (!/^[0-9A-Z]{26}$/.test(name)) continue;
    renameSync(join(from, name), join(to, name));
    moved++;
  }
  return moved;
}

/**
 * A Prometheus whose storage holds the synthetic history and, when `recordingRules` is given, the
 * recorded series of those rules over the same history; it runs with `ruleFiles` loaded.
 */
export async function startBackfilledPrometheus(options: {
  dir: string;
  histograms: SyntheticHistogram[];
  range: { start: number; end: number; stepSeconds: number };
  /** Rule file whose recording rules are backfilled (only rules over raw series: promtool's limit). */
  recordingRules?: string;
  /** Rule files loaded by the running Prometheus. */
  ruleFiles?: string[];
  evaluationInterval?: string;
  log?: (line: string) => void;
}): Promise<PrometheusServer & { samples: number }> {
  const log = options.log ?? (() => {});
  const data = join(options.dir, "data");
  rmSync(options.dir, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  const input = join(options.dir, "input");
  const { files, samples } = await writeOpenMetrics(input, options.histograms, options.range);
  log(`wrote ${samples.toLocaleString("en-US")} samples as OpenMetrics in ${files.length} files`);
  await pool(files, Math.max(1, availableParallelism()), (file) =>
    run(PROMTOOL_BIN, ["tsdb", "create-blocks-from", "openmetrics", "--quiet", file, data], { maxBuffer: 64 << 20 }),
  );
  rmSync(input, { recursive: true, force: true });
  log("created TSDB blocks from them");
  const common = {
    targets: [] as string[],
    dataDir: options.dir,
    retention: "60d",
    evaluationInterval: options.evaluationInterval ?? "1m",
  };
  if (options.recordingRules) {
    const raw = await startPrometheus(common);
    const recorded = join(options.dir, "recorded");
    try {
      await run(
        PROMTOOL_BIN,
        [
          "tsdb",
          "create-blocks-from",
          "rules",
          "--quiet",
          `--url=${raw.url}`,
          // promtool stops at the first 2-hour block whose first evaluation (aligned to the
          // group's interval and hash offset) falls past the block's end: with an hourly group and a
          // start late in its block, that is the first block, and nothing is backfilled. From the
          // block's start the first evaluation is always inside it; before the data, rules give nothing.
          `--start=${Math.floor(options.range.start / BLOCK_SECONDS) * BLOCK_SECONDS}`,
          `--end=${options.range.end}`,
          `--output-dir=${recorded}`,
          `--eval-interval=${options.evaluationInterval ?? "1m"}`,
          options.recordingRules,
        ],
        { maxBuffer: 64 << 20 },
      );
    } finally {
      await raw.close();
    }
    log(`backfilled the recording rules: ${await moveBlocks(recorded, data)} blocks`);
  }
  const server = await startPrometheus({ ...common, ruleFiles: options.ruleFiles });
  return { ...server, samples };
}
