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

// Each mode in its own function: V8 optimises functions, not long top-level loops.
function drawOnly(next: () => number): number[] {
  let checksum = 0;
  for (let i = 0; i < n; i++) checksum += next();
  return [checksum];
}

function sortAll(next: () => number): number[] {
  const all = new Float64Array(n);
  for (let i = 0; i < n; i++) all[i] = next();
  all.sort();
  return PERCENTILES.map((p) => (quantileWithCI(sortedRanks(all), p) as { value: number }).value);
}

function sketchAll(next: () => number): number[] {
  const samples = new LatencySamples();
  for (let i = 0; i < n; i++) samples.add(next());
  const ranks = samples.ranks();
  return PERCENTILES.map((p) => (quantileWithCI(ranks, p) as { value: number }).value);
}

const analyse = { generate: drawOnly, sort: sortAll, sketch: sketchAll }[mode as "generate" | "sort" | "sketch"];
const start = performance.now();
const results = [1, 2].map((seed) => analyse(generator(seed)));
const ms = performance.now() - start;
console.log(JSON.stringify({ mode, n, ms, maxRssMb: process.resourceUsage().maxRSS / 1024, results }));
