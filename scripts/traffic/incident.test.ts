import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAppUrl, demoFile, demoTrafficUrl } from "./demo-urls";
import { startTrafficGenerator, type TrafficGenerator } from "./generator";

// npm run demo:incident and npm run screenshots find a demo started with --data-dir X through X/demo.json.

const dataDir = mkdtempSync(join(tmpdir(), "lb-incident-"));
let traffic: TrafficGenerator;

beforeAll(async () => {
  traffic = await startTrafficGenerator({ requestsPerSecond: 1 });
  writeFileSync(
    join(dataDir, "demo.json"),
    JSON.stringify({ app: "http://127.0.0.1:3999", traffic: traffic.url, prometheus: null }),
  );
});

afterAll(async () => {
  await traffic?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function incident(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [resolve("node_modules/tsx/dist/cli.mjs"), "scripts/traffic/incident.ts", ...args],
      {
        env: { ...process.env, LB_TRAFFIC_URL: "", LB_DATA_DIR: "" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => done({ code, output }));
  });
}

describe("the demo's addresses from its folder", () => {
  it("reads X/demo.json for --data-dir X", () => {
    const saved = { app: process.env.LB_APP_URL, traffic: process.env.LB_TRAFFIC_URL };
    delete process.env.LB_APP_URL;
    delete process.env.LB_TRAFFIC_URL;
    try {
      expect(demoFile(dataDir)).toBe(join(dataDir, "demo.json"));
      expect(demoTrafficUrl(dataDir)).toBe(traffic.url);
      expect(demoAppUrl(dataDir)).toBe("http://127.0.0.1:3999");
    } finally {
      if (saved.app !== undefined) process.env.LB_APP_URL = saved.app;
      if (saved.traffic !== undefined) process.env.LB_TRAFFIC_URL = saved.traffic;
    }
  });

  it("npm run demo:incident -- rag --data-dir X flips that demo's traffic", async () => {
    const run = await incident(["rag", "--data-dir", dataDir]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("Incident: rag");
    const now = (await (await fetch(`${traffic.url}/incident`)).json()) as { incident: string };
    expect(now.incident).toBe("rag");
  }, 30_000);
});

describe("the traffic generator's address", () => {
  const outward = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

  it.skipIf(!outward)(
    "listens on 127.0.0.1 unless a host is given, so another machine's Prometheus needs --traffic-host",
    async () => {
      const scrape = (host: string, port: number) => fetch(`http://${host}:${port}/metrics`).then((r) => r.status);
      const local = await startTrafficGenerator({ requestsPerSecond: 1 });
      const open = await startTrafficGenerator({ requestsPerSecond: 1, host: "0.0.0.0" });
      try {
        expect(await scrape("127.0.0.1", local.port)).toBe(200);
        await expect(scrape(outward!, local.port)).rejects.toThrow();
        expect(open.url).toBe(`http://127.0.0.1:${open.port}`);
        expect(await scrape(outward!, open.port)).toBe(200);
      } finally {
        await local.stop();
        await open.stop();
      }
    },
  );
});
