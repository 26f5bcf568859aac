import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { storageStateOf } from "./e2e/accounts";
import { CHROMIUM_LAUNCH_OPTIONS } from "./test/chromium";

// End-to-end tests run the demo stack (traffic generator, a real Prometheus, the production build
// on the embedded database) in a fresh data folder, in Debian's Chromium (Playwright's own
// browser download is not reachable here).
const port = Number(process.env.E2E_PORT ?? 3210);
// The demo stack's side doors: the traffic generator's incident switch and Prometheus stop/start.
export const TRAFFIC_PORT = Number(process.env.E2E_TRAFFIC_PORT ?? 9571);
export const PROMETHEUS_PORT = Number(process.env.E2E_PROMETHEUS_PORT ?? 9572);
export const CONTROL_PORT = Number(process.env.E2E_CONTROL_PORT ?? 9573);
// A real OpenID Connect provider for single sign-on (test/oidc/provider.ts).
export const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 9574);
const appUrl = `http://127.0.0.1:${port}`;
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
    baseURL: appUrl,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  // Sign in as each role first; the journeys run as the editor unless a spec says otherwise; the
  // audit trail is checked last, against everything the journeys did.
  projects: [
    { name: "sign-in", testMatch: /sign-in\.setup\.ts/ },
    {
      name: "journeys",
      testIgnore: [/sign-in\.setup\.ts/, /audit\/.*\.spec\.ts/],
      dependencies: ["sign-in"],
      use: { storageState: storageStateOf("editor") },
    },
    {
      name: "audit",
      testMatch: /audit\/.*\.spec\.ts/,
      dependencies: ["journeys"],
      use: { storageState: storageStateOf("admin") },
    },
  ],
  webServer: [
    {
      command: `npx tsx test/oidc/provider.ts --port ${OIDC_PORT} --app ${appUrl}`,
      url: `http://127.0.0.1:${OIDC_PORT}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `npx tsx scripts/demo-stack.ts --port ${port} --data-dir ${dataDir} --traffic-port ${TRAFFIC_PORT} --prometheus-port ${PROMETHEUS_PORT} --control-port ${CONTROL_PORT} --scrape-interval 1s`,
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        DATABASE_URL: "",
        PROMETHEUS_URL: "",
        PROMETHEUS_TIMEOUT_MS: "1500",
        LB_PUBLIC_URL: appUrl,
        LB_ANONYMOUS_VIEW: "true",
        LB_TRACE_URL_TEMPLATE: "http://jaeger.e2e:16686/trace/{traceId}",
        LB_OIDC_ISSUER: `http://127.0.0.1:${OIDC_PORT}`,
        LB_OIDC_CLIENT_ID: "latency-budgets-e2e",
        LB_OIDC_CLIENT_SECRET: "e2e-client-secret-0123456789abcdef",
        LB_OIDC_NAME: "Test IdP",
        LB_OIDC_SCOPES: "openid email profile groups",
        LB_OIDC_ROLE_CLAIM: "groups",
        LB_OIDC_ROLE_MAP: "latency-leads=editor",
      },
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
