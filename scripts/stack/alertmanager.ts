import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitFor } from "./net";

// A real Alertmanager (Debian's prometheus-alertmanager) whose one receiver is the app's webhook.
// Clustering is off (--cluster.listen-address=), so it needs no gossip port. Grouping waits are
// short: the demo wants a notification within seconds of an alert firing, not minutes.

export const ALERTMANAGER_BIN = process.env.ALERTMANAGER_BIN ?? "/usr/bin/prometheus-alertmanager";

export type AlertmanagerServer = { url: string; hostPort: string; close: () => Promise<void> };

export function hasAlertmanager(): boolean {
  return existsSync(ALERTMANAGER_BIN);
}

export async function startAlertmanager(options: {
  webhookUrl: string;
  token: string;
  port?: number;
  dataDir?: string;
}): Promise<AlertmanagerServer> {
  if (!hasAlertmanager())
    throw new Error(`Alertmanager not found at ${ALERTMANAGER_BIN}: apt-get install prometheus-alertmanager`);
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), "lb-am-"));
  const port = options.port ?? (await freePort());
  const configPath = join(dir, "alertmanager.json.yml");
  writeFileSync(
    configPath,
    JSON.stringify({
      route: {
        receiver: "latency-budgets",
        group_by: ["alertname", "service", "slo", "stage", "component"],
        group_wait: "2s",
        group_interval: "10s",
        repeat_interval: "4h",
      },
      receivers: [
        {
          name: "latency-budgets",
          webhook_configs: [
            {
              url: options.webhookUrl,
              send_resolved: true,
              max_alerts: 50,
              http_config: { authorization: { type: "Bearer", credentials: options.token } },
            },
          ],
        },
      ],
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  const child: ChildProcess = spawn(
    ALERTMANAGER_BIN,
    [
      `--config.file=${configPath}`,
      `--storage.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--cluster.listen-address=",
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr?.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  await waitFor(async () => (await fetch(`${url}/-/ready`)).ok, {
    timeoutMs: 30_000,
    what: () => `Alertmanager on ${url}: ${log}`,
  });
  return {
    url,
    hostPort: `127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      if (!options.dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
