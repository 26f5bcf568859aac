import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { MigrationList } from "@prisma/schema-engine-wasm";
import { startEmbeddedPostgres } from "../embedded";
import { withSchemaEngine, type SchemaFile } from "./engine";

// Prisma's migration layout (prisma/migrations/<timestamp>_<name>/migration.sql, history in
// `_prisma_migrations`), driven through the WebAssembly schema engine so that no native binary
// is needed. `prisma migrate deploy` works unchanged on the same folder.
//
// The wasm engine cannot open a shadow database, so new migrations are diffed from the schema
// the previous migration was generated from, kept beside the migrations. The drift test
// (lib/db/migrate/drift.integration.test.ts) proves migrations and schema.prisma agree.

export const PRISMA_DIR = resolve(process.cwd(), "prisma");
export const MIGRATIONS_DIR = join(PRISMA_DIR, "migrations");
export const SCHEMA_PATH = join(PRISMA_DIR, "schema.prisma");
const SNAPSHOT_PATH = join(MIGRATIONS_DIR, "schema-at-last-migration.prisma");
const LOCKFILE = 'provider = "postgresql"\n';
const NO_FILTERS = { externalTables: [], externalEnums: [] };

export async function readSchema(path = SCHEMA_PATH): Promise<SchemaFile> {
  return { path, content: await readFile(path, "utf8") };
}

export async function readMigrationList(baseDir = MIGRATIONS_DIR): Promise<MigrationList> {
  const entries = existsSync(baseDir) ? await readdir(baseDir, { withFileTypes: true }) : [];
  const folders = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories = await Promise.all(
    folders.map(async (folder) => ({
      path: folder,
      migrationFile: {
        path: "migration.sql",
        content: await readFile(join(baseDir, folder, "migration.sql"), "utf8").then(
          (sql) => ({ tag: "ok" as const, value: sql }),
          (error: Error) => ({ tag: "error" as const, value: error.message }),
        ),
      },
    })),
  );
  const lockPath = join(baseDir, "migration_lock.toml");
  return {
    baseDir,
    lockfile: { path: "migration_lock.toml", content: existsSync(lockPath) ? await readFile(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

/** Applies every migration not yet recorded in `_prisma_migrations`; returns their names. */
export async function applyMigrations(connectionString: string, baseDir = MIGRATIONS_DIR): Promise<string[]> {
  const migrationsList = await readMigrationList(baseDir);
  return withSchemaEngine(connectionString, await readSchema(), async (engine) => {
    const result = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
    return result.appliedMigrationNames;
  });
}

/** SQL that takes a database described by `from` (or an empty one) to the one described by `to`. */
export async function diffSchemas(from: SchemaFile | null, to: SchemaFile): Promise<string> {
  // A diff between two datamodels reads no database, but the engine insists on a connection.
  const scratch = await startEmbeddedPostgres();
  try {
    const result = await withSchemaEngine(scratch.url, to, (engine) =>
      engine.diff({
        from: from ? { tag: "schemaDatamodel", files: [from] } : { tag: "empty" },
        to: { tag: "schemaDatamodel", files: [to] },
        script: true,
        exitCode: null,
        filters: NO_FILTERS,
      }),
    );
    const script = result.stdout ?? "";
    return /^\s*(-- This is an empty migration\.)?\s*$/.test(script) ? "" : script;
  } finally {
    await scratch.stop();
  }
}

async function readSnapshot(): Promise<SchemaFile | null> {
  return existsSync(SNAPSHOT_PATH) ? readSchema(SNAPSHOT_PATH) : null;
}

/** The SQL a new migration would contain now (empty when schema.prisma has no pending change). */
export async function pendingMigrationSql(): Promise<string> {
  return diffSchemas(await readSnapshot(), await readSchema());
}

function timestamp(now = new Date()): string {
  return now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

export async function createMigration(name: string): Promise<{ folder: string; sql: string } | null> {
  if (!/^[a-z0-9_]{1,60}$/.test(name)) throw new Error("Migration name: use 1–60 characters a-z, 0-9 and _.");
  const schema = await readSchema();
  const sql = await diffSchemas(await readSnapshot(), schema);
  if (!sql) return null;
  const folder = `${timestamp()}_${name}`;
  await mkdir(join(MIGRATIONS_DIR, folder), { recursive: true });
  await writeFile(join(MIGRATIONS_DIR, folder, "migration.sql"), sql);
  await writeFile(join(MIGRATIONS_DIR, "migration_lock.toml"), LOCKFILE);
  await writeFile(SNAPSHOT_PATH, schema.content);
  return { folder, sql };
}
