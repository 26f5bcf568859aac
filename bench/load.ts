// Sustained load: autocannon at a fixed 200 requests per second on each live view's API, as an
// anonymous viewer, a signed-in person (session cookie) and a script (API token), each beside the
// route floor (/api/health) under the same load; and the app's memory over the whole load.
// Goals: p99 < 300 ms, no failures, the full rate served; memory flat over ten full minutes
// (RSS's peak in the second half within 10 % or 64 MB of the first half's, and the heap in use
// after collections in the tenth minute within 10 MB of the second minute's).
// BENCH_HEAP_SNAPSHOTS=1 has the app write a V8 heap snapshot at minutes 2 and 9 (into bench/results/);
// `npx tsx bench/heap-diff.ts A B` then names what grew between them.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import type { Db } from "../lib/db/client";
import { systemActor } from "../lib/services/actor";
import { createUser } from "../lib/services/auth/users";
import type { Row } from "./measure";
import type { BenchStack } from "./stack";

export const LOAD = {
  rate: 200,
  seconds: Number(process.env.BENCH_LOAD_SECONDS ?? 30),
  p99Ms: 300,
  memoryMinutes: Number(process.env.BENCH_MEMORY_MINUTES ?? 10),
  /** The heap floor may grow by this much from the second minute to the last. */
  heapGrowthMb: 10,
};

const VIEWS = {
  waterfall: "/api/services/chat-api/waterfall?quantile=0.95&window=5m",
  SLOs: "/api/services/chat-api/slos",
  KPIs: "/api/services/chat-api/kpis",
  timeline: "/api/services/chat-api/timeline?range=1h",
} as const;
const FLOOR = "/api/health";

type Caller = { name: string; headers: Record<string, string> };

type Run = { p50: number; p99: number; served: number; failed: number; total: number };

// autocannon holds a rate by giving each connection a quota per second, which it sends as fast as
// answers come back: every second starts with all connections asking at once. 20 connections
// (10 requests a second each) are 20 viewers refreshing together; 100 are a herd, measured once
// for the record beside the floor under the same herd.
const VIEWERS = 20;
const HERD = 100;

async function hammer(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections = VIEWERS,
): Promise<Run> {
  const result = await autocannon({
    url,
    headers,
    overallRate: LOAD.rate,
    connections,
    duration: seconds,
    timeout: 10,
  });
  const failed = result.errors + result.timeouts + result.non2xx;
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    served: result["2xx"] / seconds,
    failed,
    total: result.requests.total,
  };
}

/** The callers a live view has: nobody, a session cookie, an API token. */
async function callers(stack: BenchStack, db: Db): Promise<Caller[]> {
  const email = `bench-${Date.now()}@bench.test`;
  const password = "bench viewer password";
  await createUser({ db, actor: systemActor("bench"), input: { email, name: "Bench", role: "editor", password } });
  const signedIn = await fetch(`${stack.appUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: stack.appUrl },
    body: JSON.stringify({ email, password }),
  });
  const cookie = signedIn.headers
    .getSetCookie()
    .find((c) => c.includes("session_token="))
    ?.split(";")[0];
  if (!cookie) throw new Error(`Signing the bench's user in failed: ${signedIn.status} ${await signedIn.text()}`);
  const created = await fetch(`${stack.appUrl}/api/tokens`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: stack.appUrl, cookie },
    body: JSON.stringify({ name: "bench", scopes: ["read"] }),
  });
  const { token } = (await created.json()) as { token: string };
  return [
    { name: "anonymous", headers: {} },
    { name: "session cookie", headers: { cookie } },
    { name: "API token", headers: { authorization: `Bearer ${token}` } },
  ];
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** The app's own /metrics (its heap and its caches), or null while it does not answer. */
async function appMetrics(stack: BenchStack): Promise<string | null> {
  const response = await fetch(`${stack.appUrl}/metrics`, {
    headers: { authorization: `Bearer ${stack.metricsToken}` },
  }).catch(() => null);
  return response?.ok ? response.text() : null;
}

/** Sums the samples of one metric in /metrics' text, in MB. */
function sumMb(text: string, metric: string): number {
  const samples = [...text.matchAll(new RegExp(`^${metric}(?:\\{[^}]*\\})? (\\S+)$`, "gm"))];
  return samples.reduce((sum, m) => sum + Number(m[1]), 0) / 2 ** 20;
}

type Sample = { at: number; rss: number; heap: number | null };

/**
 * Memory over the whole load, judged two ways that a leak cannot pass and V8's own heap sizing
 * cannot fail. V8 lets its heap grow to several times the live set before a full collection, so
 * RSS swings by hundreds of MB within a minute and a minute's median catches either phase: a
 * leak shows instead as a higher peak in the second half than in the first (after the first
 * minute's warm-up), and as a higher floor of the heap in use (the least each minute, i.e. what
 * survives a collection) at the end than in the second minute.
 */
function memoryRows(samples: Sample[], cached: number): Row[] {
  const end = samples.at(-1)!.at;
  // Whole minutes only: a run of LOAD.memoryMinutes ends a little after its last minute's end.
  const minutes = Math.min(LOAD.memoryMinutes, Math.floor(end / 60_000));
  const middle = 60_000 + (end - 60_000) / 2;
  const peak = (from: number, to: number) =>
    Math.max(...samples.filter((s) => s.at >= from && s.at < to).map((s) => s.rss));
  const [first, second] = [peak(60_000, middle), peak(middle, end + 1)];
  const low = Math.min(...samples.filter((s) => s.at >= 60_000).map((s) => s.rss));
  const rssBound = Math.max(64, first * 0.1);
  const heapFloor = (m: number) => {
    const heaps = samples
      .filter((s) => s.at >= m * 60_000 && s.at < (m + 1) * 60_000 && s.heap !== null)
      .map((s) => s.heap!);
    return heaps.length ? Math.min(...heaps) : NaN;
  };
  const [heapEarly, heapLate] = [heapFloor(1), heapFloor(minutes - 1)];
  const curve = Array.from({ length: minutes }, (_, m) => heapFloor(m).toFixed(0)).join(", ");
  const sign = (n: number) => `${n >= 0 ? "+" : ""}${n.toFixed(0)}`;
  return [
    {
      name: `app RSS over ${minutes} minutes of that load, peak of each half after the first minute`,
      value: `${first.toFixed(0)} MB → ${second.toFixed(0)} MB (${sign(second - first)} MB; RSS ranged ${low.toFixed(0)}–${Math.max(first, second).toFixed(0)} MB as V8 sized its heap)`,
      target: `growth ≤ ${rssBound.toFixed(0)} MB (10 % or 64 MB)`,
      met: second - first <= rssBound,
    },
    {
      name: `app heap in use after collections (each minute's least), minute 2 vs minute ${minutes}`,
      value: `${heapEarly.toFixed(0)} MB → ${heapLate.toFixed(0)} MB (${sign(heapLate - heapEarly)} MB; minute by minute ${curve} MB; the app's caches count ${cached.toFixed(1)} MB at the end)`,
      target: `growth ≤ ${LOAD.heapGrowthMb} MB over ${LOAD.memoryMinutes} full minutes`,
      met: minutes >= LOAD.memoryMinutes && heapLate - heapEarly <= LOAD.heapGrowthMb,
    },
  ];
}

export async function runLoadBench(stack: BenchStack, db: Db): Promise<Row[]> {
  const rows: Row[] = [];
  const who = await callers(stack, db);
  const samples: Sample[] = [];
  const started = Date.now();
  const snapshots = process.env.BENCH_HEAP_SNAPSHOTS
    ? [2, LOAD.memoryMinutes - 1].map((minute) =>
        setTimeout(() => {
          process.kill(stack.appPid, "SIGUSR2");
          console.log(`  heap snapshot asked of the app at minute ${minute} (bench/results/)`);
        }, minute * 60_000),
      )
    : [];
  const sampler = setInterval(async () => {
    const at = Date.now() - started;
    const rss = rssMb(stack.appPid);
    const text = await appMetrics(stack);
    samples.push({ at, rss, heap: text === null ? null : sumMb(text, "latency_budgets_nodejs_heap_size_used_bytes") });
  }, 1000);
  try {
    // Warm-up: every route and caller once, so the runs measure the steady state.
    for (const caller of who)
      for (const path of [...Object.values(VIEWS), FLOOR])
        await fetch(`${stack.appUrl}${path}`, { headers: caller.headers }).then((r) => r.arrayBuffer());
    const floor = await hammer(`${stack.appUrl}${FLOOR}`, {}, LOAD.seconds);
    console.log(
      `  floor ${FLOOR}: p50 ${floor.p50} ms, p99 ${floor.p99} ms, ${floor.served.toFixed(0)} req/s served, ${floor.failed} failed`,
    );
    for (const [view, path] of Object.entries(VIEWS))
      for (const caller of who) {
        const run = await hammer(`${stack.appUrl}${path}`, caller.headers, LOAD.seconds);
        const fullRate = run.served >= LOAD.rate * 0.98;
        rows.push({
          name: `${view} API at ${LOAD.rate} req/s for ${LOAD.seconds} s, ${VIEWERS} connections, ${caller.name}`,
          value: `p99 ${run.p99} ms (floor ${floor.p99} ms; p50 ${run.p50} ms), ${run.served.toFixed(0)} req/s served, ${run.failed} failed of ${run.total}`,
          target: `p99 < ${LOAD.p99Ms} ms, 0 failed, ≥ 98 % of ${LOAD.rate} req/s`,
          met: run.p99 < LOAD.p99Ms && run.failed === 0 && fullRate,
        });
        console.log(`  ${rows.at(-1)!.met ? "✓" : "✗"} ${rows.at(-1)!.name}: ${rows.at(-1)!.value}`);
      }
    // The herd: the same rate from 100 connections at once, floor and waterfall, for the record.
    const herdFloor = await hammer(`${stack.appUrl}${FLOOR}`, {}, LOAD.seconds, HERD);
    const herd = await hammer(`${stack.appUrl}${VIEWS.waterfall}`, {}, LOAD.seconds, HERD);
    rows.push({
      name: `waterfall API at ${LOAD.rate} req/s from a herd of ${HERD} connections, anonymous`,
      value: `p99 ${herd.p99} ms (floor ${herdFloor.p99} ms under the same herd; p50 ${herd.p50} vs ${herdFloor.p50} ms), ${herd.served.toFixed(0)} req/s served, ${herd.failed} failed`,
      target: `p99 ≤ 1.25 × the floor's, 0 failed`,
      met: herd.p99 <= 1.25 * herdFloor.p99 && herd.failed === 0,
    });
    console.log(`  ${rows.at(-1)!.name}: ${rows.at(-1)!.value}`);
    // The rest of the memory run: the same mix, round after round, until it has lasted long enough.
    const combos = Object.values(VIEWS).flatMap((path) => who.map((caller) => ({ path, caller })));
    // A few seconds past the last minute, so that minute's floor has all its samples.
    const runMs = LOAD.memoryMinutes * 60_000 + 5_000;
    for (let i = 0; Date.now() - started < runMs; i++) {
      const { path, caller } = combos[i % combos.length]!;
      const left = Math.ceil((runMs - (Date.now() - started)) / 1000);
      await hammer(`${stack.appUrl}${path}`, caller.headers, Math.max(1, Math.min(LOAD.seconds, left)));
    }
  } finally {
    clearInterval(sampler);
    snapshots.forEach(clearTimeout);
  }
  rows.push(...memoryRows(samples, sumMb((await appMetrics(stack)) ?? "", "latency_budgets_cache_bytes")));
  return rows;
}
