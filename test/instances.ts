import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { freePort, waitFor } from "../scripts/stack/net";

// A real instance of the app as `npm start` runs it (the launcher, then the app's own HTTP server
// in front of the production build), for tests that need several of them on one database.

export type AppInstance = {
  url: string;
  /** Everything it printed. */
  log: () => string;
  /** SIGTERM, as an orchestrator stops it; resolves with the exit code. */
  terminate: () => Promise<number | null>;
};

export async function startInstance(env: Record<string, string>, args: string[] = []): Promise<AppInstance> {
  const port = await freePort();
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [
      resolve("node_modules/tsx/dist/cli.mjs"),
      "--conditions=react-server",
      "scripts/serve.ts",
      "--port",
      String(port),
      ...args,
    ],
    { env: { ...process.env, ...env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/api/health`)).ok, {
    timeoutMs: 90_000,
    what: () => `the app on ${url}:\n${output}`,
  });
  return {
    url,
    log: () => output,
    terminate: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
