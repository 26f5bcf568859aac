// Starts the app. Without DATABASE_URL it first starts the embedded PostgreSQL (PGlite, data in
// .data/pglite), so one command gives a working app on a fresh machine. Either way it applies
// pending migrations and, on a database with no services, the seed data.
//
//   tsx scripts/serve.ts [--dev] [--port 3000] [--no-seed]
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { EMBEDDED_POOL_SIZE, startEmbeddedPostgres, type EmbeddedPostgres } from "../lib/db/embedded";
import { createDb } from "../lib/db/create";
import { applyMigrations } from "../lib/db/migrate/migrations";
import { prometheus } from "../lib/prometheus/instance";
import { syncRulesFile } from "../lib/services/rules";
import { seedDatabase } from "../prisma/seed";

const { values } = parseArgs({
  options: {
    dev: { type: "boolean", default: false },
    port: { type: "string", default: process.env.PORT ?? "3000" },
    "no-seed": { type: "boolean", default: false },
    "data-dir": { type: "string", default: process.env.LB_DATA_DIR ?? ".data/pglite" },
  },
});

async function prepareDatabase(): Promise<{ url: string; kind: "postgres" | "embedded"; embedded?: EmbeddedPostgres }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, kind: "postgres" };
  const dataDir = resolve(values["data-dir"]!);
  mkdirSync(dataDir, { recursive: true });
  const isNew = !existsSync(resolve(dataDir, "PG_VERSION"));
  const embedded = await startEmbeddedPostgres({ dataDir, port: Number(process.env.LB_EMBEDDED_DB_PORT ?? 0) });
  console.log(`${isNew ? "Created" : "Opened"} the embedded database in ${dataDir}`);
  return { url: embedded.url, kind: "embedded", embedded };
}

async function main() {
  const database = await prepareDatabase();
  const applied = await applyMigrations(database.url);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);

  const db = createDb(database.url, 1);
  if (!values["no-seed"] && (await db.service.count()) === 0)
    console.log(`Seeded services: ${(await seedDatabase(db)).join(", ")}`);
  // The demo's Prometheus reads the rule file: write it before the first request, and before this
  // connection closes under the rewrites the seed's saves started.
  if (process.env.LB_RULES_FILE) {
    await syncRulesFile({ db, prom: prometheus() });
    console.log(`Wrote the alerting rules to ${process.env.LB_RULES_FILE}`);
  }
  await db.$disconnect();

  const nextBin = resolve("node_modules/next/dist/bin/next");
  const app = spawn(process.execPath, [nextBin, values.dev ? "dev" : "start", "--port", values.port!], {
    stdio: "inherit",
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      LB_DATABASE_KIND: database.kind,
      ...(database.embedded && { DATABASE_POOL_SIZE: String(EMBEDDED_POOL_SIZE) }),
    },
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (app.exitCode === null) app.kill("SIGTERM");
    await database.embedded?.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  app.on("exit", (code) => void stop(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
