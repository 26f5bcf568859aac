import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// PGlite is PostgreSQL compiled to WebAssembly. Served over the Postgres wire protocol it is
// reached through the same `pg` driver and Prisma adapter as a real server, so the app has
// one code path for both.
//
// PGlite is a single backend. The socket server queues messages from several connections, but
// extended-protocol messages (Parse/Bind/Execute) of concurrent connections can interleave, so
// clients of the embedded database use ONE connection (EMBEDDED_POOL_SIZE): queries are then
// serialised by the pool, which costs nothing since PGlite runs one query at a time anyway.
export const EMBEDDED_POOL_SIZE = 1;

export type EmbeddedPostgres = { url: string; stop: () => Promise<void> };

export async function startEmbeddedPostgres(
  options: { dataDir?: string; port?: number; maxConnections?: number } = {},
): Promise<EmbeddedPostgres> {
  const db = await PGlite.create(options.dataDir);
  const server = new PGLiteSocketServer({
    db,
    host: "127.0.0.1",
    port: options.port ?? 0,
    maxConnections: options.maxConnections ?? 32,
  });
  await server.start();
  return {
    url: `postgresql://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
