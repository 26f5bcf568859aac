import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

// End-to-end tests run the demo stack (traffic generator, a real Prometheus, the production build
// on the embedded database) in a fresh data folder, in Debian's Chromium (Playwright's own
// browser download is not reachable here).
const port = Number(process.env.E2E_PORT ?? 3210);
// The demo stack's side doors: the traffic generator's incident switch and Prometheus stop/start.
export const TRAFFIC_PORT = Number(process.env.E2E_TRAFFIC_PORT ?? 9571);
export const PROMETHEUS_PORT = Number(process.env.E2E_PROMETHEUS_PORT ?? 9572);
export const CONTROL_PORT = Number(process.env.E2E_CONTROL_PORT ?? 9573);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), "lb-e2e-"));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    command: `npx tsx scripts/demo-stack.ts --port ${port} --data-dir ${dataDir}/pglite --traffic-port ${TRAFFIC_PORT} --prometheus-port ${PROMETHEUS_PORT} --control-port ${CONTROL_PORT} --scrape-interval 1s`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { DATABASE_URL: "", PROMETHEUS_URL: "", LB_DEFAULT_AUTHOR: "e2e-lead", PROMETHEUS_TIMEOUT_MS: "1500" },
    stdout: "pipe",
    stderr: "pipe",
  },
});
