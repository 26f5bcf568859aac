import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitFor } from "../scripts/stack/net";

// A throwaway PostgreSQL cluster from the server binaries Debian installs, for tests and
// benchmarks. Runs as the `postgres` user when started as root (initdb refuses root).
const POSTGRES_BIN = process.env.POSTGRES_BIN ?? "/usr/lib/postgresql/15/bin";

export type PostgresCluster = { url: string; stop: () => Promise<void> };

export function hasPostgresBinaries(): boolean {
  return existsSync(join(POSTGRES_BIN, "initdb")) && existsSync(join(POSTGRES_BIN, "postgres"));
}

function asPostgresUser(args: string[]): [string, string[]] {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) return [args[0]!, args.slice(1)];
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  return ["su", ["postgres", "-s", "/bin/sh", "-c", `exec ${quoted}`]];
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  if (!hasPostgresBinaries()) {
    throw new Error(`PostgreSQL server binaries not found in ${POSTGRES_BIN}: apt-get install postgresql-15`);
  }
  const dir = mkdtempSync(join(tmpdir(), "lb-pg-"));
  chmodSync(dir, 0o777);
  const dataDir = join(dir, "data");
  const [initCmd, initArgs] = asPostgresUser([
    join(POSTGRES_BIN, "initdb"),
    "-D",
    dataDir,
    "-A",
    "trust",
    "-U",
    "postgres",
    "--no-sync",
    "-E",
    "UTF8",
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);

  const port = await freePort();
  const [cmd, args] = asPostgresUser([
    join(POSTGRES_BIN, "postgres"),
    "-D",
    dataDir,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "synchronous_commit=off",
    "-c",
    "full_page_writes=off",
    "-c",
    "max_connections=200",
  ]);
  const server: ChildProcess = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  server.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  await waitFor(() => /ready to accept connections/.test(stderr), {
    timeoutMs: 30_000,
    what: () => `PostgreSQL on port ${port}: ${stderr.slice(-500)}`,
  });
  return {
    url,
    stop: async () => {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGINT");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
