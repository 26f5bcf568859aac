import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, waitFor } from "../../scripts/stack/net";

// A new user's machine: a Prometheus of their own already on 9090 (and something on 9464). The
// demo still comes up, on ports it says, and its admin signs in at http://127.0.0.1:PORT — the
// address people type as often as localhost.

test.describe("the demo on a busy machine", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("npm run demo comes up while 9090 and 9464 are taken, and signing in at 127.0.0.1 works", async ({ page }) => {
    test.setTimeout(240_000);
    const holders: Server[] = [];
    for (const port of [9090, 9464]) {
      const holder = createServer();
      // Already taken by something else on this machine is just as good.
      await new Promise<void>((resolve) => holder.once("error", () => resolve()).listen(port, "127.0.0.1", resolve));
      holders.push(holder);
    }
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), "lb-demo-ports-"));
    let log = "";
    // A fresh shell's environment: none of the e2e stack's settings.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !/^(DATABASE_URL|PROMETHEUS_URL|LB_|E2E_)/.test(key)),
    ) as NodeJS.ProcessEnv;
    const demo = spawn("bash", ["scripts/demo.sh", "--port", String(port), "--data-dir", dataDir], {
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    demo.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    demo.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const app = `http://127.0.0.1:${port}`;
    try {
      await waitFor(async () => (await fetch(`${app}/api/health`)).ok, {
        timeoutMs: 180_000,
        intervalMs: 500,
        what: () => `the demo on ${app}:\n${log}`,
      });
      expect(log).toMatch(/Port 9090 is taken .*: the demo's Prometheus uses \d+ instead/);
      expect(log).toMatch(/Port 9464 is taken .*: the demo's traffic generator uses \d+ instead/);
      expect(log).toContain(`listening on http://127.0.0.1:${port}`);
      // Its own Prometheus answers, wherever it ended up.
      await expect
        .poll(async () => (await (await fetch(`${app}/api/health`)).json()).prometheus, { timeout: 30_000 })
        .toBe("up");

      await page.goto(`${app}/sign-in`);
      await page.getByLabel("Email").fill("admin@example.com");
      await page.getByLabel("Password").fill("latency-budgets-demo");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page.getByTestId("signed-in-as")).toHaveText("admin@example.com");
      expect((await (await page.request.get(`${app}/api/me`)).json()).user.role).toBe("admin");
    } finally {
      if (demo.pid) process.kill(-demo.pid, "SIGTERM");
      await new Promise((resolve) => demo.once("exit", resolve));
      for (const holder of holders) holder.close();
    }
  });
});
