// Starts the app. Without DATABASE_URL it first starts the embedded PostgreSQL (PGlite, data in
// .data/pglite), so one command gives a working app on a fresh machine. Either way it applies
// pending migrations. A team's database starts empty (the first-run page offers the examples);
// --seed (the demo, npm run dev) adds the three example services to a database with none.
// On the embedded database it listens on 127.0.0.1 unless a host is given (--host, LB_HOST): that
// database is for one machine, and it may be the demo's, whose admin password is published.
// It never listens beyond this machine while an active account still signs in with the demo's
// published password, except for the demo itself (--demo), which says so.
//
//   tsx scripts/serve.ts [--dev] [--port 3000] [--host 127.0.0.1] [--seed] [--demo]
// The app itself runs in scripts/app-server.ts, in a child process.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { EMBEDDED_POOL_SIZE, startEmbeddedPostgres, type EmbeddedPostgres } from "../lib/db/embedded";
import { createDb } from "../lib/db/create";
import { environmentProblems } from "../lib/env";
import { applyMigrations } from "../lib/db/migrate/migrations";
import { prometheus } from "../lib/prometheus/instance";
import { syncRulesFile } from "../lib/services/rules";
import { issueSetupCode } from "../lib/services/auth/setup";
import { ensureDemoAdmin } from "../lib/services/auth/users";
import { accountsWithPublishedPassword, DEMO_ADMIN } from "../lib/services/auth/demo-password";
import { isLoopbackHost } from "../lib/net/client-address";
import { seedDatabase } from "../prisma/seed";

const { values } = parseArgs({
  options: {
    dev: { type: "boolean", default: false },
    port: { type: "string", default: process.env.PORT ?? "3000" },
    host: { type: "string", default: process.env.LB_HOST || undefined },
    seed: { type: "boolean", default: false },
    demo: { type: "boolean", default: false },
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

/**
 * Session cookies are signed with LB_AUTH_SECRET. Without one, a secret is generated once and kept
 * next to the data, so sessions survive restarts; several instances must share a configured one.
 */
function authSecret(): string {
  if (process.env.LB_AUTH_SECRET) return process.env.LB_AUTH_SECRET;
  const file = resolve(values["data-dir"]!, "..", "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(resolve(file, ".."), { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
    console.log(`Generated a session secret in ${file} (set LB_AUTH_SECRET when you run more than one instance)`);
  }
  return readFileSync(file, "utf8").trim();
}

async function main() {
  // A configuration the app cannot follow stops it here, saying what to fix, rather than at the
  // first request (or, for the SSO role map, by reading it some other way).
  const problems = environmentProblems();
  if (problems.length) {
    console.error(`The configuration is not valid:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
    process.exit(1);
  }
  const database = await prepareDatabase();
  // Given (--host, LB_HOST), or this machine only on the embedded database, or every interface.
  const host = values.host ?? (database.kind === "embedded" ? "127.0.0.1" : undefined);
  if (!values.host && database.kind === "embedded")
    console.log(
      "The embedded database is for one machine: listening on 127.0.0.1 only (LB_HOST=0.0.0.0 or --host opens it to the network).",
    );
  const applied = await applyMigrations(database.url);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);

  const db = createDb(database.url, 1);
  if (values.seed && (await db.service.count()) === 0)
    console.log(`Seeded services: ${(await seedDatabase(db)).join(", ")}`);
  const { LB_DEMO_ADMIN_EMAIL: adminEmail, LB_DEMO_ADMIN_PASSWORD: adminPassword } = process.env;
  if (adminEmail && adminPassword) {
    const created = await ensureDemoAdmin(db, { email: adminEmail, password: adminPassword });
    console.log(
      `${created ? "Created the" : "The"} demo admin: sign in as ${adminEmail} with password ${adminPassword}`,
    );
  }
  // Reached from other machines: it listens beyond this one, or a public URL elsewhere leads to it (a proxy).
  const publicHost = process.env.LB_PUBLIC_URL ? URL.parse(process.env.LB_PUBLIC_URL)?.hostname : undefined;
  const exposedAt = !isLoopbackHost(host)
    ? (host ?? "every interface")
    : publicHost && !isLoopbackHost(publicHost)
      ? process.env.LB_PUBLIC_URL
      : null;
  if (exposedAt) {
    const published = await accountsWithPublishedPassword(db, [adminEmail, DEMO_ADMIN.email]);
    const where = exposedAt;
    for (const email of published) {
      if (values.demo) {
        console.warn(
          `Warning: the demo is served on ${where} and ${email} signs in with the published password "${DEMO_ADMIN.password}": anyone who can reach it can sign in as ${email}.`,
        );
        continue;
      }
      console.error(
        [
          `Not serving on ${where}: ${email} still signs in with the demo's published password "${DEMO_ADMIN.password}", so anyone who can reach it could sign in as ${email}.`,
          `Start on this machine only first (without LB_HOST or --host on the embedded database, or with --host 127.0.0.1), sign in as ${email} and change that password under Settings → Password (or deactivate the account under Admin → Users), then start again.`,
        ].join("\n"),
      );
    }
    if (published.length && !values.demo) {
      await db.$disconnect();
      await database.embedded?.stop();
      process.exit(1);
    }
  }
  const setupCode = await issueSetupCode(db);
  if (setupCode)
    console.log(
      `Nobody has an account yet. Open /setup and enter this one-time code to create the first admin: ${setupCode} (valid 24 hours; a restart prints a new one)`,
    );
  // The demo's Prometheus reads the rule file: write it before the first request, and before this
  // connection closes under the rewrites the seed's saves started.
  if (process.env.LB_RULES_FILE) {
    await syncRulesFile({ db, prom: prometheus() });
    console.log(`Wrote the alerting rules to ${process.env.LB_RULES_FILE}`);
  }
  await db.$disconnect();

  const app = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/app-server.ts",
      "--port",
      values.port!,
      ...(host ? ["--host", host] : []),
      ...(values.dev ? ["--dev"] : []),
    ],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        LB_DATABASE_KIND: database.kind,
        LB_AUTH_SECRET: authSecret(),
        ...(database.embedded && { DATABASE_POOL_SIZE: String(EMBEDDED_POOL_SIZE) }),
        NODE_ENV: values.dev ? "development" : "production",
        PORT: values.port!,
        // Nothing outside the package registries is reachable from many of the places this runs.
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  );

  let stopping = false;
  const exited = new Promise<void>((done) => app.once("exit", () => done()));
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // The app finishes its requests in flight first; the embedded database stays up until it has.
    if (app.exitCode === null) app.kill("SIGTERM");
    await exited;
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
