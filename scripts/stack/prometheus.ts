import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitFor } from "./net";

// A real Prometheus (Debian's package) with its own config and storage in a temp folder.
// The config is written as JSON, which is valid YAML.

export const PROMETHEUS_BIN = process.env.PROMETHEUS_BIN ?? "/usr/bin/prometheus";

export type PrometheusServer = {
  url: string;
  port: number;
  stop: () => Promise<void>;
  /** Starts it again on the same port and storage after stop(), like a restart after an outage. */
  start: () => Promise<void>;
  /** SIGSTOP: it keeps accepting connections and never answers, like a hung process or a wedged proxy. */
  freeze: () => void;
  /** SIGCONT after freeze(). */
  thaw: () => void;
  close: () => Promise<void>;
};

export function hasPrometheus(): boolean {
  return existsSync(PROMETHEUS_BIN);
}

export async function startPrometheus(options: {
  targets: string[];
  scrapeInterval?: string;
  port?: number;
  dataDir?: string;
  retention?: string;
  /** Rule files (globs) to load; a pattern matching nothing yet is fine. */
  ruleFiles?: string[];
  /** Alertmanagers to send alerts to, as host:port. */
  alertmanagers?: string[];
  evaluationInterval?: string;
  /** Extra flags, e.g. for benchmarks. */
  flags?: string[];
  /** More scrape jobs, e.g. the app's own /metrics behind a bearer token. */
  jobs?: { name: string; targets: string[]; metricsPath?: string; bearerToken?: string }[];
}): Promise<PrometheusServer> {
  if (!hasPrometheus()) throw new Error(`Prometheus not found at ${PROMETHEUS_BIN}: apt-get install prometheus`);
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), "lb-prom-"));
  const port = options.port ?? (await freePort());
  const configPath = join(dir, "prometheus.json.yml");
  const interval = options.scrapeInterval ?? "5s";
  writeFileSync(
    configPath,
    JSON.stringify({
      global: { scrape_interval: interval, evaluation_interval: options.evaluationInterval ?? interval },
      ...(options.ruleFiles && { rule_files: options.ruleFiles }),
      ...(options.alertmanagers && {
        alerting: { alertmanagers: [{ static_configs: [{ targets: options.alertmanagers }] }] },
      }),
      scrape_configs: [
        ...(options.targets.length
          ? [{ job_name: "latency-budgets", static_configs: [{ targets: options.targets }] }]
          : []),
        ...(options.jobs ?? []).map((job) => ({
          job_name: job.name,
          static_configs: [{ targets: job.targets }],
          ...(job.metricsPath && { metrics_path: job.metricsPath }),
          ...(job.bearerToken && { authorization: { credentials: job.bearerToken } }),
        })),
      ],
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let log = "";

  const start = async () => {
    if (child && child.exitCode === null) return;
    child = spawn(
      PROMETHEUS_BIN,
      [
        `--config.file=${configPath}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--storage.tsdb.retention.time=${options.retention ?? "2d"}`,
        `--web.listen-address=127.0.0.1:${port}`,
        "--web.enable-lifecycle",
        "--log.level=warn",
        ...(options.flags ?? []),
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    child.stderr?.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    await waitFor(async () => (await fetch(`${url}/-/ready`)).ok, {
      timeoutMs: 30_000,
      what: () => `Prometheus on ${url}: ${log}`,
    });
  };

  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGCONT"); // a frozen process cannot handle SIGTERM
    running.kill("SIGTERM");
    await exited;
  };

  await start();
  return {
    url,
    port,
    start,
    stop,
    freeze: () => void (child as ChildProcess | null)?.kill("SIGSTOP"),
    thaw: () => void (child as ChildProcess | null)?.kill("SIGCONT"),
    close: async () => {
      await stop();
      if (!options.dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
