import "server-only";
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Db } from "@/lib/db/client";
import { listSloRows, type SloRow } from "@/lib/db/slos";
import { countCacheLookup, reportCacheSize } from "@/lib/observability/metrics";
import { getServiceOrThrow } from "./services";

// Live views (SLO gauges, KPIs) read a service's SLO definitions on every refresh; a short-lived
// copy spares the database those reads, as the budget's does. A change in this process drops it at
// once; other instances see a change within SLO_DEFINITIONS_TTL_MS.

export const SLO_DEFINITIONS_TTL_MS = 2000;

export type SloDefinitions = {
  serviceId: string;
  rows: SloRow[];
  /** Changes whenever any definition does: part of every cached answer's key. */
  fingerprint: string;
};

const globalForSlos = globalThis as unknown as { latencyBudgetsSloDefinitions?: LRUCache<string, SloDefinitions> };
const definitions = (globalForSlos.latencyBudgetsSloDefinitions ??= new LRUCache<string, SloDefinitions>({
  max: 2000,
  maxSize: 16 << 20,
  sizeCalculation: (value) => 2 * JSON.stringify(value.rows).length + 200,
  ttl: SLO_DEFINITIONS_TTL_MS,
  updateAgeOnGet: false,
}));
reportCacheSize("slo-definitions", () => ({ entries: definitions.size, bytes: definitions.calculatedSize }));

/** Drops every cached definition in this process (after any SLO change). */
export function forgetCachedSlos(): void {
  definitions.clear();
}

/** The service's SLOs for read-only live views: at most SLO_DEFINITIONS_TTL_MS old. */
export async function getSlosForLiveView({ db, slug }: { db: Db; slug: string }): Promise<SloDefinitions> {
  const hit = definitions.get(slug);
  countCacheLookup("slo-definitions", hit !== undefined);
  if (hit) return hit;
  const service = await getServiceOrThrow({ db, slug });
  return primeCachedSlos(slug, service.id, await listSloRows(db, service.id));
}

/** Keeps a service's SLO definitions just read (the status board reads every service's at once). */
export function primeCachedSlos(slug: string, serviceId: string, rows: SloRow[]): SloDefinitions {
  const fingerprint = createHash("sha256")
    .update(JSON.stringify(rows.map((r) => [r.id, r.version, r.updatedAt])))
    .digest("base64url")
    .slice(0, 16);
  const value = { serviceId, rows, fingerprint };
  definitions.set(slug, value);
  return value;
}
