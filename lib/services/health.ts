import "server-only";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { prometheus } from "@/lib/prometheus/instance";

export type Health = {
  ok: boolean;
  database: "postgres" | "embedded";
  databaseReachable: boolean;
  prometheus: "up" | "down" | "unconfigured";
  prometheusError?: string;
};

async function prometheusHealth(): Promise<Pick<Health, "prometheus" | "prometheusError">> {
  const prom = prometheus();
  if (!prom) return { prometheus: "unconfigured" };
  const breaker = prom.breaker;
  if (breaker?.state === "open")
    return {
      prometheus: "down",
      prometheusError: `Prometheus ${breaker.reason} since ${new Date(breaker.openedAt!).toISOString()}; checking again in the background.`,
    };
  const result = await prom.query("vector(1)", prom.alignTime(Date.now() / 1000));
  return result.status === "success" ? { prometheus: "up" } : { prometheus: "down", prometheusError: result.error };
}

export async function getHealth(): Promise<Health> {
  const database = env().LB_DATABASE_KIND;
  const [databaseReachable, prom] = await Promise.all([
    db().$queryRaw`SELECT 1`.then(() => true).catch(() => false),
    prometheusHealth(),
  ]);
  // Prometheus being down degrades the live views but the app still serves budgets.
  return { ok: databaseReachable, database, databaseReachable, ...prom };
}
