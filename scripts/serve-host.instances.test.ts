import { mkdtempSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startInstance, type AppInstance } from "@/test/instances";

// `npm start` after `npm run demo`: no DATABASE_URL, so the demo's embedded database, with the
// demo's admin and its published password. It listens on this machine only until a host is given,
// and is not served beyond it until that password is changed.

const DEMO_ADMIN = { email: "admin@example.com", password: "latency-budgets-demo" };
const dataRoot = mkdtempSync(join(tmpdir(), "lb-serve-host-"));
const env = {
  DATABASE_URL: "",
  LB_DATA_DIR: join(dataRoot, "pglite"),
  LB_HOST: "",
  LB_AUTH_SECRET: "serve-host-test-secret-0123456789abcdefghij",
  LB_DEMO_ADMIN_EMAIL: DEMO_ADMIN.email,
  LB_DEMO_ADMIN_PASSWORD: DEMO_ADMIN.password,
  PROMETHEUS_URL: "",
  LB_RULES_FILE: "",
};
/** An address of this machine that other machines reach it at, if it has one. */
const outward = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;
let app: AppInstance | undefined;

afterAll(async () => {
  await app?.terminate();
  rmSync(dataRoot, { recursive: true, force: true });
});

describe("npm start on the embedded database", () => {
  it("listens on 127.0.0.1 only when no host is given, and says so", async () => {
    app = await startInstance(env);
    expect(app.log()).toContain("listening on 127.0.0.1 only");
    expect(app.log()).toMatch(/is listening on http:\/\/127\.0\.0\.1:\d+;/);
    expect((await fetch(`${app.url}/api/health`)).ok).toBe(true);
    if (outward) {
      const port = new URL(app.url).port;
      await expect(fetch(`http://${outward}:${port}/api/health`)).rejects.toThrow();
    }
  }, 120_000);

  it("opens to the network once the demo's password is changed", async () => {
    const signIn = await fetch(`${app!.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app!.url },
      body: JSON.stringify(DEMO_ADMIN),
    });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .find((c) => c.includes("session_token="))!
      .split(";")[0]!;
    const changed = await fetch(`${app!.url}/api/me/password`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app!.url, cookie },
      body: JSON.stringify({ currentPassword: DEMO_ADMIN.password, newPassword: "a-password-nobody-published" }),
    });
    expect(changed.status, await changed.text()).toBe(200);
    await app!.terminate();
    app = await startInstance({ ...env, LB_HOST: "0.0.0.0" });
    expect(app.log()).not.toMatch(/Not serving/);
    expect(app.log()).toMatch(/is listening on http:\/\/localhost:\d+ \(all interfaces\)/);
    if (outward) expect((await fetch(`http://${outward}:${new URL(app.url).port}/api/health`)).ok).toBe(true);
  }, 180_000);
});
