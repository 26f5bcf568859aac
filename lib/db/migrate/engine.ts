import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";

// Prisma's native schema engine is a binary downloaded at install time from a host that is not
// reachable everywhere; the same engine ships as WebAssembly on npm. Its package entry imports
// the .wasm file as an ES module, which Node only allows behind a flag, so it is instantiated
// here by hand with the package's own JS glue.
//
// The glue module holds one wasm instance for the whole process, even when this file is loaded
// more than once (test runners give each project its own module graph), so the instance, the
// queue that keeps engines from interleaving and the panic registry live on globalThis.
type EngineGlobals = { initialised?: Promise<void>; queue: Promise<unknown>; panics: string[] };
const globals = globalThis as typeof globalThis & {
  latencyBudgetsSchemaEngine?: EngineGlobals;
  PRISMA_WASM_PANIC_REGISTRY?: unknown;
};
const state: EngineGlobals = (globals.latencyBudgetsSchemaEngine ??= { queue: Promise.resolve(), panics: [] });
// The engine's Rust code reports a panic's message through this registry before it throws.
globals.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (message: string) => state.panics.push(message) };

function initialiseWasm(): Promise<void> {
  state.initialised ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = await readFile(gluePath.replace(/\.js$/, ".wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, {
      "./schema_engine_bg.js": bindings as unknown as WebAssembly.ModuleImports,
    });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
  })();
  return state.initialised;
}

export type SchemaFile = { path: string; content: string };

type ScriptAdapter = { executeScript(script: string): Promise<void>; onError(error: unknown): never };

/**
 * adapter-pg runs a script statement by statement, split at every ";", which cuts a function
 * body ($$ … ; … $$) in half. Prisma's native engine sends a migration as one multi-statement
 * query; so does this, so `prisma migrate deploy` and the launcher run the same SQL.
 */
class WholeScriptPg extends PrismaPg {
  constructor(private readonly pool: pg.Pool) {
    super(pool);
  }

  override async connect() {
    const adapter = await super.connect();
    (adapter as unknown as ScriptAdapter).executeScript = async (script: string) => {
      try {
        await this.pool.query(script);
      } catch (error) {
        (adapter as unknown as ScriptAdapter).onError(error);
      }
    };
    return adapter;
  }
}

/**
 * Runs `use` with the schema engine open on a PostgreSQL database. The connection pool is ours
 * so that it closes afterwards: freeing the engine alone leaves its session, and with it
 * Prisma's migration advisory lock, open.
 */
export async function withSchemaEngine<T>(
  connectionString: string,
  schema: SchemaFile,
  run: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  await initialiseWasm();
  const pool = new pg.Pool({ connectionString, max: 2 });
  const adapter = bindMigrationAwareSqlAdapterFactory(new WholeScriptPg(pool));
  const log = (message: string) => {
    if (process.env.DEBUG_SCHEMA_ENGINE) console.error(message);
  };
  const engine = await bindings.SchemaEngine.new({ datamodels: [[schema.path, schema.content]] }, log, adapter);
  try {
    return await run(engine);
  } catch (error) {
    if (state.panics.length) {
      throw new Error(`Prisma schema engine panicked: ${state.panics.splice(0).join("; ")}`, { cause: error });
    }
    throw error;
  } finally {
    engine.free();
    await pool.end();
  }
}
