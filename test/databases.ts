import { randomUUID } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { EMBEDDED_POOL_SIZE, startEmbeddedPostgres } from "../lib/db/embedded";

/** Connections a test client may open: several on PostgreSQL, one on the embedded database. */
export function testPoolSize(): number {
  return inject("databaseKind") === "embedded" ? EMBEDDED_POOL_SIZE : 8;
}

/** An empty database of the same kind as the test run's: a new database in the cluster, or a new PGlite. */
export async function freshDatabase(
  kind: "postgres" | "embedded",
  clusterUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (kind === "embedded") {
    const embedded = await startEmbeddedPostgres();
    return { url: embedded.url, drop: embedded.stop };
  }
  const name = `scratch_${randomUUID().replace(/-/g, "")}`;
  await withClient(clusterUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(clusterUrl, (c) => c.query(`DROP DATABASE ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Tables, columns, constraints and indexes of the public schema, in a stable order. */
export async function describeSchema(url: string): Promise<Record<string, unknown[]>> {
  return withClient(url, async (c) => {
    const excluded = "('_prisma_migrations')";
    const columns = await c.query(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, character_maximum_length, numeric_precision, datetime_precision
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name NOT IN ${excluded}
        ORDER BY table_name, column_name`,
    );
    const constraints = await c.query(
      `SELECT rel.relname AS table_name, con.conname, con.contype, pg_get_constraintdef(con.oid) AS definition
         FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = rel.relnamespace
        WHERE ns.nspname = 'public' AND rel.relname NOT IN ${excluded}
        ORDER BY rel.relname, con.conname`,
    );
    const indexes = await c.query(
      `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename NOT IN ${excluded} ORDER BY tablename, indexname`,
    );
    return { columns: columns.rows, constraints: constraints.rows, indexes: indexes.rows };
  });
}
