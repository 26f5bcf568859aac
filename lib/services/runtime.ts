import "server-only";
import { db, type Db } from "@/lib/db/client";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { prometheus } from "@/lib/prometheus/instance";

/** What pages and route handlers hand to services: the process's database and Prometheus. */
export function runtime(): { db: Db; prom: CoalescingClient | null } {
  return { db: db(), prom: prometheus() };
}

/** What every live view is asked with: where to read, which service, the raw query, and "now". */
export type LiveViewArgs = { db: Db; prom: CoalescingClient | null; slug: string; query: unknown; now?: number };
