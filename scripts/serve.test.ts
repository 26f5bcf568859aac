import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The launcher (npm start, npm run demo) refuses a configuration the app cannot follow before it
// opens a database, naming the variable and the entry.

function launch(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [resolve("node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", "scripts/serve.ts", "--port", "0"],
      {
        env: {
          ...process.env,
          DATABASE_URL: "",
          LB_DATA_DIR: join(mkdtempSync(join(tmpdir(), "lb-serve-")), "pglite"),
          ...env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

describe("scripts/serve.ts", () => {
  it("does not listen beyond this machine while the demo's admin still has its published password", async () => {
    // What `npm start` finds after `npm run demo` (the demo's admin, made with its published password).
    const run = await launch({
      LB_HOST: "0.0.0.0",
      LB_DEMO_ADMIN_EMAIL: "admin@example.com",
      LB_DEMO_ADMIN_PASSWORD: "latency-budgets-demo",
    });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain(
      `Not serving on 0.0.0.0: admin@example.com still signs in with the demo's published password "latency-budgets-demo"`,
    );
    expect(run.output).toMatch(/change that password under Settings → Password/);
    expect(run.output).not.toMatch(/is listening on/);
  }, 90_000);

  it("nor on this machine behind a proxy whose public URL is elsewhere", async () => {
    const run = await launch({
      LB_HOST: "127.0.0.1",
      LB_PUBLIC_URL: "https://lb.example.com",
      LB_DEMO_ADMIN_EMAIL: "admin@example.com",
      LB_DEMO_ADMIN_PASSWORD: "latency-budgets-demo",
    });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain("Not serving on https://lb.example.com: admin@example.com still signs in");
  }, 90_000);

  it("does not start with an SSO role map entry that is not group=viewer|editor|admin, and names the entry", async () => {
    const entries = ["sre-leads=Editor", "a:admin", "=admin", "x=root"];
    const runs = await Promise.all(entries.map((entry) => launch({ LB_OIDC_ROLE_MAP: `ok=viewer,${entry}` })));
    for (const [i, run] of runs.entries()) {
      expect(run.code, run.output).toBe(1);
      expect(run.output).toContain(`LB_OIDC_ROLE_MAP: "${entries[i]}" is not group=role`);
      // Stopped before anything was opened.
      expect(run.output).not.toContain("embedded database");
    }
  }, 90_000);
});
