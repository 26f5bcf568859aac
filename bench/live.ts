// The live views one request at a time: the waterfall API against the same query sent straight to
// Prometheus and Next's route floor, Prometheus requests per refresh, 200 viewers refreshing together.
import type { Db } from "../lib/db/client";
import { componentKey, END_TO_END_KEY } from "../lib/domain/waterfall";
import { GROUP_LABEL } from "../lib/prometheus/buckets";
import { taggedBucketQuery } from "../lib/prometheus/promql";
import { systemActor } from "../lib/services/actor";
import { getBudget } from "../lib/services/budgets";
import { createService } from "../lib/services/services";
import { median, timed, type Row } from "./measure";
import type { BenchStack } from "./stack";

export async function runLiveBench(stack: BenchStack, db: Db): Promise<Row[]> {
  const rows: Row[] = [];
  const report = (name: string, value: string, target: string, met: boolean) => {
    rows.push({ name, value, target, met });
  };
  // 1. Warm waterfall API vs the same query sent straight to Prometheus. Each request uses its
  //    own time so the app's short-lived cache cannot answer: this is the app's full overhead.
  const budget = await getBudget({ db, slug: "chat-api" });
  const sources = budget.stages.flatMap((s, i) =>
    s.components.map((c, j) => ({ key: componentKey(i, j), source: c.source! })),
  );
  sources.push({ key: END_TO_END_KEY, source: budget.endToEndSource! });
  const rawQuery = taggedBucketQuery(sources, { fn: "rate", window: "5m", groupLabel: GROUP_LABEL });
  const now = Math.floor(Date.now() / 1000);
  // Bodies are read, not parsed, everywhere: the figures are the server's cost, not the client's.
  const times = Array.from({ length: 100 }, (_, i) => now - 5 * (i + 1));
  const raw = (t: number) =>
    fetch(`${stack.prometheusUrl}/api/v1/query`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ query: rawQuery, time: String(t) }),
    }).then((r) => r.arrayBuffer());
  const api = (t: number) =>
    fetch(`${stack.appUrl}/api/services/chat-api/waterfall?window=5m&at=${t}`).then((r) => r.arrayBuffer());
  for (const t of times.slice(0, 5)) await Promise.all([raw(t + 1), api(t + 2)]); // warm up JIT, pools, page cache
  // Interleaved, so drift on a busy machine hits all four alike: the same query straight to
  // Prometheus; the API uncached (each request its own time, so neither cache can answer); Next's
  // floor (a request refused before any work: a slug that cannot exist); and a repeated view,
  // answered from the serialised-answer cache.
  const floor = () => fetch(`${stack.appUrl}/api/services/NO_SUCH!/waterfall`).then((r) => r.arrayBuffer());
  await api(times[0]!);
  const rawMs: number[] = [];
  const apiMs: number[] = [];
  const floorMs: number[] = [];
  const cachedMs: number[] = [];
  for (const t of times) {
    rawMs.push(await timed(() => raw(t)));
    apiMs.push(await timed(() => api(t)));
    floorMs.push(await timed(floor));
    cachedMs.push(await timed(() => api(times[0]!)));
  }
  const [rawMedian, apiMedian, floorMedian, cachedMedian] = [rawMs, apiMs, floorMs, cachedMs].map(median) as [
    number,
    number,
    number,
    number,
  ];
  const uncachedRatio = apiMedian / (rawMedian + floorMedian);
  report(
    "waterfall API, warm, uncached, vs raw Prometheus + the route floor",
    `median ${apiMedian.toFixed(1)} ms = ${uncachedRatio.toFixed(2)} × (${rawMedian.toFixed(1)} + ${floorMedian.toFixed(1)} ms)`,
    "≤ 1.10 ×",
    uncachedRatio <= 1.1,
  );
  const cachedRatio = cachedMedian / floorMedian;
  report(
    "waterfall API, warm, repeated view (serialised answer), vs the route floor",
    `median ${cachedMedian.toFixed(1)} ms = ${cachedRatio.toFixed(2)} × the floor's ${floorMedian.toFixed(1)} ms`,
    "≤ 1.10 ×",
    cachedRatio <= 1.1,
  );
  console.log(
    `  for reference: uncached minus the floor is ${(apiMedian - floorMedian).toFixed(1)} ms against the raw query's ${rawMedian.toFixed(1)} ms (the bench asks Prometheus with fetch, the app with node:http, which is ~1 ms cheaper)`,
  );

  // 2. Prometheus requests per refresh, whatever the number of components: all components and
  //    the end-to-end histogram come in one query of bucket rates, and every percentile is
  //    computed from those same buckets.
  for (const count of [1, 10, 30]) {
    const slug = `bench-${count}`;
    await createService({
      db,
      actor: systemActor("bench"),
      input: {
        slug,
        name: slug,
        stages: Array.from({ length: count }, (_, i) => ({
          name: `s${i}`,
          components: [
            {
              name: `c${i}`,
              budgetMs: { p50: null, p95: 50, p99: null },
              source: {
                preset: "generic",
                metric: "llm_stage_duration_seconds",
                matchers: { service: "chat-api", stage: "rag" },
              },
            },
          ],
        })),
      },
    }).catch(() => undefined);
    const used: number[] = [];
    for (const quantile of ["0.5", "0.95", "0.99"]) {
      const before = stack.prometheusRequests();
      await fetch(
        `${stack.appUrl}/api/services/${slug}/waterfall?window=5m&quantile=${quantile}&at=${now - 300 - count}`,
      );
      used.push(stack.prometheusRequests() - before);
    }
    const total = used.reduce((a, b) => a + b, 0);
    report(
      `Prometheus requests for p50, p95 and p99 of ${count} components`,
      `${used.join(" + ")} = ${total} (${(total / 3).toFixed(2)} per percentile)`,
      "≤ 1 per percentile",
      total <= 3,
    );
  }

  // 3. 200 viewers refreshing together vs one viewer.
  const beforeOne = stack.prometheusRequests();
  await fetch(`${stack.appUrl}/api/services/chat-api/waterfall?window=15m`);
  const one = stack.prometheusRequests() - beforeOne;
  await new Promise((r) => setTimeout(r, 6000)); // past the cache's lifetime
  const beforeMany = stack.prometheusRequests();
  await Promise.all(
    Array.from({ length: 200 }, () =>
      fetch(`${stack.appUrl}/api/services/chat-api/waterfall?window=15m`).then((r) => r.arrayBuffer()),
    ),
  );
  const many = stack.prometheusRequests() - beforeMany;
  report(
    "200 simulated viewers refreshing together",
    `${many} Prometheus requests = ${(many / one).toFixed(2)} × one viewer's ${one}`,
    "≤ 2 ×",
    many <= 2 * one,
  );

  return rows;
}
