import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPrometheus, type PrometheusServer } from "./stack/prometheus";
import { freePort, waitFor } from "./stack/net";

// `PROMETHEUS_URL=http://my-prometheus:9090 npm run demo`, as the README offers it to people who
// have a Prometheus already: the real command, on a data folder that does not exist yet (a fresh
// clone has no .data), against a Prometheus this test started and the demo did not. The demo must
// start, seed its services, and read their live percentiles from that Prometheus.

const root = mkdtempSync(join(tmpdir(), "lb-demo-"));
/** Neither `clone` nor `.data` exists: nothing but the demo may create them. */
const dataRoot = join(root, "clone", ".data");
let prometheus: PrometheusServer;
let demo: ChildProcess;
let output = "";
let appUrl = "";
let trafficPort = 0;

/** The demo's whole process group: npm, bash, tsx, the launcher, the app, the embedded database. */
function signalDemo(signal: NodeJS.Signals) {
  try {
    process.kill(-demo.pid!, signal);
  } catch {
    // already gone
  }
}

/** Whether any process of the demo's group is still running. */
function groupAlive(): boolean {
  try {
    process.kill(-demo.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  const appPort = await freePort();
  trafficPort = await freePort();
  appUrl = `http://127.0.0.1:${appPort}`;
  // "My Prometheus": it scrapes the demo's traffic generator, as the demo asks people to configure.
  prometheus = await startPrometheus({ targets: [`127.0.0.1:${trafficPort}`], scrapeInterval: "1s" });
  expect(existsSync(dataRoot)).toBe(false);
  demo = spawn(
    "npm",
    [
      "run",
      "--silent",
      "demo",
      "--",
      "--port",
      String(appPort),
      "--traffic-port",
      String(trafficPort),
      "--data-dir",
      dataRoot,
    ],
    {
      detached: true, // its own process group, so the test can stop all of it
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        PROMETHEUS_URL: prometheus.url,
        // The embedded database in the fresh folder, not the suite's PostgreSQL.
        DATABASE_URL: "",
        // Its own session secret, kept in the data folder like a fresh clone's.
        LB_AUTH_SECRET: "",
        PORT: String(appPort),
      },
    },
  );
  demo.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  demo.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let health: { ok?: boolean; prometheus?: string } = {};
  // A fresh clone builds first (npm test has built already); the crash this guards against came
  // before the app started, so a demo that exits fails here at once, with what it printed.
  await waitFor(
    async () => {
      if (demo.exitCode !== null) throw new Error("exited");
      health = await (await fetch(`${appUrl}/api/health`)).json();
      return health.ok === true && health.prometheus === "up";
    },
    { timeoutMs: 150_000, what: () => `the demo on ${appUrl} (health ${JSON.stringify(health)}):\n${output}` },
  ).catch((error: unknown) => {
    throw demo.exitCode !== null
      ? new Error(`The demo exited with code ${demo.exitCode}:\n${output}`)
      : (error as Error);
  });
}, 180_000);

afterAll(async () => {
  if (demo && groupAlive()) {
    signalDemo("SIGTERM");
    await waitFor(() => !groupAlive(), { timeoutMs: 15_000, what: () => "the demo to stop" }).catch(() =>
      signalDemo("SIGKILL"),
    );
  }
  await prometheus?.close();
  rmSync(root, { recursive: true, force: true });
}, 30_000);

describe("npm run demo with PROMETHEUS_URL, on a fresh clone", () => {
  it("uses that Prometheus (starts none of its own) and says where it wrote its ports", () => {
    expect(output).toContain(`Using Prometheus at ${prometheus.url}`);
    expect(output).not.toMatch(/^Prometheus: http/m);
    const ports = JSON.parse(readFileSync(join(dataRoot, "demo.json"), "utf8"));
    expect(ports).toEqual({ app: appUrl, traffic: `http://127.0.0.1:${trafficPort}`, prometheus: prometheus.url });
    expect(existsSync(join(dataRoot, "pglite", "PG_VERSION"))).toBe(true);
    // Everything the demo keeps is in --data-dir, nothing beside it.
    expect(existsSync(join(dataRoot, "auth-secret"))).toBe(true);
    expect(readdirSync(join(root, "clone"))).toEqual([".data"]);
  });

  it("seeds the demo's services and reads their live percentiles from that Prometheus", async () => {
    const services = (await (await fetch(`${appUrl}/api/services`)).json()) as { slug: string }[];
    expect(services.map((s) => s.slug).sort()).toEqual(["chat-api", "rag-answer", "rag-chatbot"]);
    // The only Prometheus here is the test's: it scrapes the demo's traffic...
    const up = await (
      await fetch(
        `${prometheus.url}/api/v1/query?query=${encodeURIComponent(`up{instance="127.0.0.1:${trafficPort}"}`)}`,
      )
    ).json();
    expect(up.data.result.map((r: { value: [number, string] }) => r.value[1])).toEqual(["1"]);
    // ...and the waterfall measures chat-api from it once a few scrapes have landed.
    let measured: number | null = null;
    await waitFor(
      async () => {
        const view = await (await fetch(`${appUrl}/api/services/chat-api/waterfall?window=1m`)).json();
        measured = view.measuredEndToEndMs;
        return typeof measured === "number" && measured > 0;
      },
      { timeoutMs: 60_000, intervalMs: 1000, what: () => `a measured chat-api end to end (last: ${measured})` },
    );
    // The status page (the first page people open) shows the seeded services.
    const page = await (await fetch(appUrl)).text();
    expect(page).toContain("chat-api");
  }, 90_000);

  it("stops cleanly on SIGTERM: every process of the group exits, nothing listens any more", async () => {
    signalDemo("SIGTERM");
    await waitFor(() => !groupAlive(), { timeoutMs: 20_000, what: () => `the demo's processes to exit:\n${output}` });
    await expect(fetch(`${appUrl}/api/health`)).rejects.toThrow();
  }, 30_000);
});
