// One measured run of experiment analysis, in its own process so its peak memory is its own.
//   tsx bench/experiment-worker.ts <generate|sort|sketch> <samplesPerVariant>
// Every mode draws the same seeded log-normal samples for two variants; `generate` only draws
// them (the process's floor), `sort` keeps and sorts them all (the exact baseline), `sketch`
// feeds them to LatencySamples (raw up to its limit, DDSketch beyond).
import { LatencySamples } from "../lib/domain/stats/latency-samples";
import { quantileWithCI, sortedRanks } from "../lib/domain/stats/quantile-ci";

const [mode = "sketch", countArg = "10000000"] = process.argv.slice(2);
const n = Number(countArg);
const PERCENTILES = [0.5, 0.95, 0.99];

function generator(seed: number) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return () => Math.exp(6 + 0.45 * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()));
}

// Samples are drawn in chunks into a reused buffer, outside the timed sections, so only the
// analysis is timed; each mode keeps what it needs across chunks.
const CHUNK = 1 << 20;
const chunk = new Float64Array(CHUNK);

function forEachChunk(next: () => number, consume: (values: Float64Array) => void): number {
  let timed = 0;
  for (let done = 0; done < n; done += CHUNK) {
    const size = Math.min(CHUNK, n - done);
    for (let i = 0; i < size; i++) chunk[i] = next();
    const start = performance.now();
    consume(size === CHUNK ? chunk : chunk.subarray(0, size));
    timed += performance.now() - start;
  }
  return timed;
}

function drawOnly(next: () => number): { ms: number; values: number[] } {
  let checksum = 0;
  const ms = forEachChunk(next, (values) => {
    for (let i = 0; i < values.length; i++) checksum += values[i]!;
  });
  return { ms, values: [checksum] };
}

function sortAll(next: () => number): { ms: number; values: number[] } {
  const all = new Float64Array(n);
  let filled = 0;
  let ms = forEachChunk(next, (values) => {
    all.set(values, filled);
    filled += values.length;
  });
  const start = performance.now();
  all.sort();
  const values = PERCENTILES.map((p) => (quantileWithCI(sortedRanks(all), p) as { value: number }).value);
  ms += performance.now() - start;
  return { ms, values };
}

function sketchAll(next: () => number): { ms: number; values: number[] } {
  const samples = new LatencySamples();
  let ms = forEachChunk(next, (values) => samples.addMany(values));
  const start = performance.now();
  const ranks = samples.ranks();
  const values = PERCENTILES.map((p) => (quantileWithCI(ranks, p) as { value: number }).value);
  ms += performance.now() - start;
  return { ms, values };
}

const analyse = { generate: drawOnly, sort: sortAll, sketch: sketchAll }[mode as "generate" | "sort" | "sketch"];
const runs = [1, 2].map((seed) => analyse(generator(seed)));
const ms = runs.reduce((sum, r) => sum + r.ms, 0);
const results = runs.map((r) => r.values);
console.log(JSON.stringify({ mode, n, ms, maxRssMb: process.resourceUsage().maxRSS / 1024, results }));
