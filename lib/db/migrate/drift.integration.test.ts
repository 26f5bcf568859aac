import { afterAll, describe, expect, inject, it } from "vitest";
import { describeSchema, freshDatabase, withClient } from "@/test/databases";
import { applyMigrations, diffSchemas, pendingMigrationSql, readSchema } from "./migrations";

const kind = inject("databaseKind");
const clusterUrl = inject("databaseUrl");
const cleanups: (() => Promise<void>)[] = [];

async function databaseFrom(sql: string): Promise<string> {
  const db = await freshDatabase(kind, clusterUrl);
  cleanups.push(db.drop);
  await withClient(db.url, (c) => c.query(sql));
  return db.url;
}

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe(`migrations (${kind})`, () => {
  it("applied to an empty database give exactly what schema.prisma describes", async () => {
    const migrated = await freshDatabase(kind, clusterUrl);
    cleanups.push(migrated.drop);
    const applied = await applyMigrations(migrated.url);
    expect(applied.length).toBeGreaterThan(0);

    const fromSchema = await databaseFrom(await diffSchemas(null, await readSchema()));
    const expected = await describeSchema(fromSchema);
    expect(expected.columns!.length).toBeGreaterThan(10);
    expect(await describeSchema(migrated.url)).toEqual(expected);
  });

  it("are recorded in _prisma_migrations and not applied twice", async () => {
    const db = await freshDatabase(kind, clusterUrl);
    cleanups.push(db.drop);
    const first = await applyMigrations(db.url);
    expect(await applyMigrations(db.url)).toEqual([]);
    const rows = await withClient(db.url, (c) =>
      c.query(`SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name`),
    );
    expect(rows.rows.map((r) => r.migration_name)).toEqual(first);
    expect(rows.rows.every((r) => r.finished_at !== null)).toBe(true);
  });

  it("leave no change in schema.prisma without a migration", async () => {
    expect(await pendingMigrationSql()).toBe("");
  });

  it("the comparison notices a schema change (the drift check can fail)", async () => {
    const schema = await readSchema();
    const changed = {
      ...schema,
      content: schema.content.replace("model Service {", "model Service {\n  owner String?"),
    };
    const a = await databaseFrom(await diffSchemas(null, schema));
    const b = await databaseFrom(await diffSchemas(null, changed));
    expect(await describeSchema(a)).not.toEqual(await describeSchema(b));
  });
});
