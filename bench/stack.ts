import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { resolve } from "node:path";
import { startEmbeddedPostgres, EMBEDDED_POOL_SIZE } from "../lib/db/embedded";
import { hasPostgresBinaries, startPostgresCluster } from "../test/postgres";
import { applyMigrations } from "../lib/db/migrate/migrations";
import { createDb } from "../lib/db/create";
import { seedDatabase } from "../prisma/seed";
import { freePort, waitFor } from "../scripts/stack/net";
import { startPrometheus } from "../scripts/stack/prometheus";
import { startTrafficGenerator } from "../scripts/traffic/generator";

// The benchmark's stack: demo traffic → Prometheus ← counting proxy ← the production app.
// The proxy counts every request the app sends to Prometheus.

export type BenchStack = {
  appUrl: string;
  /** Prometheus behind the counting proxy: the same path the app's queries take. */
  prometheusUrl: string;
  prometheusRequests: () => number;
  databaseUrl: string;
  databaseKind: "postgres" | "embedded";
  /** The app's process, for its memory. */
  appPid: number;
  /** Bearer token for the app's /metrics (its heap figures). */
  metricsToken: string;
  stop: () => Promise<void>;
};

async function startCountingProxy(
  target: string,
): Promise<{ url: string; count: () => number; stop: () => Promise<void> }> {
  const upstream = new URL(target);
  let count = 0;
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/api/v1/query")) count++;
    const proxied = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    proxied.on("error", () => res.writeHead(502).end());
    req.pipe(proxied);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => count,
    stop: () => new Promise((r) => server.close(() => r())),
  };
}

const METRICS_TOKEN = "bench-only-metrics-token-0123456789";

export async function startBenchStack(): Promise<BenchStack> {
  const traffic = await startTrafficGenerator({ requestsPerSecond: 50 });
  const prometheus = await startPrometheus({ targets: [traffic.url.replace("http://", "")], scrapeInterval: "1s" });
  const proxy = await startCountingProxy(prometheus.url);
  // PostgreSQL as in production when its binaries are here; the embedded database otherwise.
  const isPostgres = hasPostgresBinaries();
  const database = isPostgres ? await startPostgresCluster() : await startEmbeddedPostgres();
  await applyMigrations(database.url);
  const db = createDb(database.url, isPostgres ? 4 : EMBEDDED_POOL_SIZE);
  await seedDatabase(db);
  await db.$disconnect();

  const port = await freePort();
  if (process.env.BENCH_HEAP_SNAPSHOTS) mkdirSync("bench/results", { recursive: true });
  const app: ChildProcess = spawn(
    process.execPath,
    // As `npm start` serves it: the app's own server in front of Next's handler.
    [
      // The load bench's heap snapshots (BENCH_HEAP_SNAPSHOTS=1): V8 writes one on SIGUSR2.
      ...(process.env.BENCH_HEAP_SNAPSHOTS
        ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${resolve("bench/results")}`]
        : []),
      "--import",
      "tsx",
      resolve("scripts/app-server.ts"),
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
    ],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        LB_DATABASE_KIND: isPostgres ? "postgres" : "embedded",
        DATABASE_POOL_SIZE: String(isPostgres ? 10 : EMBEDDED_POOL_SIZE),
        PROMETHEUS_URL: proxy.url,
        NODE_ENV: "production",
        // The figures are for dashboards anyone may open (an incident link); a token adds one indexed lookup.
        LB_ANONYMOUS_VIEW: "true",
        LB_PUBLIC_URL: `http://127.0.0.1:${port}`,
        LB_AUTH_SECRET: process.env.LB_AUTH_SECRET ?? "bench-only-session-secret-0123456789abcdef",
        LB_METRICS_TOKEN: METRICS_TOKEN,
      },
    },
  );
  const appUrl = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${appUrl}/api/health`)).ok, { timeoutMs: 60_000, what: () => "the app" });
  return {
    appUrl,
    prometheusUrl: proxy.url,
    prometheusRequests: proxy.count,
    databaseUrl: database.url,
    databaseKind: isPostgres ? "postgres" : "embedded",
    appPid: app.pid!,
    metricsToken: METRICS_TOKEN,
    stop: async () => {
      app.kill("SIGTERM");
      await proxy.stop();
      await prometheus.close();
      await traffic.stop();
      await database.stop();
    },
  };
}
