import "server-only";
import { randomUUID } from "node:crypto";
import { LRUCache } from "lru-cache";
import pg from "pg";
import { env } from "@/lib/env";
import { countCacheLookup, reportCacheSize } from "@/lib/observability/metrics";
import type { Actor } from "../actor";

// Who a session cookie or an API token belongs to, kept for ACTOR_CACHE_TTL_MS so a dashboard
// polled 200 times a second does not cost 200 database lookups. Taking access away still holds
// from the next request, on every instance:
// - PostgreSQL: every instance LISTENs on "lb_auth_changes". Triggers (migration
//   auth_change_notifications) notify at the commit of anything that can take access away, and
//   each instance then forgets every cached actor. The app's own changes also wait, before they
//   answer, until their notification has come back to them (so it has reached every listener).
//   Until the listener is connected, or after it drops, nothing is cached.
// - The embedded database serves one instance, whose own changes forget the cache directly.

export const ACTOR_CACHE_TTL_MS = 30_000;
export const ACTOR_CACHE_MAX_ENTRIES = 10_000;
export const ACTOR_CACHE_MAX_BYTES = 8 << 20;
const CHANNEL = "lb_auth_changes";
const ECHO_TIMEOUT_MS = 2000;

type Entry = { actor: Actor; bytes: number };

type State = {
  actors: LRUCache<string, Entry>;
  /** Whether a change made anywhere reaches this instance: only then are actors cached. */
  listening: boolean;
  listener: pg.Client | null;
  /** Settles waiting for their own notification to come back, by payload. */
  echoes: Map<string, () => void>;
  connecting: Promise<void> | null;
  /** Counts forgettings, so an answer read before one is not kept after it. */
  generation: number;
};

const globalForActors = globalThis as unknown as { latencyBudgetsActorCache?: State };
const state: State = (globalForActors.latencyBudgetsActorCache ??= {
  actors: new LRUCache<string, Entry>({
    max: ACTOR_CACHE_MAX_ENTRIES,
    maxSize: ACTOR_CACHE_MAX_BYTES,
    sizeCalculation: (entry) => entry.bytes,
  }),
  listening: false,
  listener: null,
  echoes: new Map(),
  connecting: null,
  generation: 0,
});
reportCacheSize("actor", () => ({ entries: state.actors.size, bytes: state.actors.calculatedSize }));

function forgetAll(): void {
  state.generation++;
  state.actors.clear();
}

const isEmbedded = () => env().LB_DATABASE_KIND === "embedded";

function connect(): Promise<void> {
  const url = env().DATABASE_URL;
  if (!url) return Promise.resolve();
  state.connecting ??= (async () => {
    const client = new pg.Client({ connectionString: url, application_name: "latency-budgets auth listener" });
    const drop = () => {
      if (state.listener !== client) return;
      state.listening = false;
      state.listener = null;
      forgetAll();
      client.end().catch(() => undefined);
      // Reconnects on a later lookup, at most once a second.
      setTimeout(() => (state.connecting = null), 1000).unref();
    };
    client.on("error", drop);
    client.on("end", drop);
    client.on("notification", (message) => {
      forgetAll();
      const settle = message.payload ? state.echoes.get(message.payload) : undefined;
      settle?.();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      forgetAll();
      state.listener = client;
      state.listening = true;
    } catch {
      client.end().catch(() => undefined);
      setTimeout(() => (state.connecting = null), 1000).unref();
    }
  })();
  return state.connecting;
}

/** Whether a cached actor can be trusted here: a change anywhere reaches this instance. */
function canCache(): boolean {
  if (isEmbedded()) return true;
  if (!state.listening) void connect();
  return state.listening;
}

/**
 * The actor `key` names (a hash of a cookie or a token), from the cache or from `resolve`, which
 * also says when the credential expires. Refusals are not cached: they throw each time.
 */
export async function cachedActor(
  key: string,
  resolve: () => Promise<{ actor: Actor; expiresAt?: Date | null }>,
): Promise<Actor> {
  const useCache = canCache();
  const hit = useCache ? state.actors.get(key) : undefined;
  countCacheLookup("actor", Boolean(hit));
  if (hit) return hit.actor;
  const generation = state.generation;
  const { actor, expiresAt } = await resolve();
  // A change that landed while this was read may have been read before it: not kept.
  if (useCache && generation === state.generation && canCache()) {
    const ttl = Math.min(ACTOR_CACHE_TTL_MS, expiresAt ? expiresAt.getTime() - Date.now() : Infinity);
    if (ttl > 0) state.actors.set(key, { actor, bytes: 2 * (key.length + JSON.stringify(actor).length) }, { ttl });
  }
  return actor;
}

/** Forgets every cached actor on this instance. */
export function forgetActors(): void {
  forgetAll();
}

/**
 * After a change that can take access away: forgets this instance's actors and, on PostgreSQL,
 * notifies every instance and waits (up to 2 s) until the notification has come back here.
 * Notifications arrive in commit order, so every listener has then had it too.
 */
export async function settleAuthChange(sql: (payload: string) => Promise<unknown>): Promise<void> {
  forgetActors();
  if (isEmbedded() || !state.listening) return;
  const payload = `settle:${randomUUID()}`;
  const echoed = new Promise<void>((done) => {
    const timer = setTimeout(done, ECHO_TIMEOUT_MS);
    state.echoes.set(payload, () => {
      clearTimeout(timer);
      done();
    });
  });
  try {
    await sql(payload);
    await echoed;
  } finally {
    state.echoes.delete(payload);
  }
}

export { CHANNEL as AUTH_CHANGES_CHANNEL };
