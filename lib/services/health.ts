import { db } from "@/lib/db/client";
import { env } from "@/lib/env";

export type Health = {
  ok: boolean;
  database: "postgres" | "embedded";
  databaseReachable: boolean;
  prometheus: "up" | "down" | "unconfigured";
};

export async function getHealth(): Promise<Health> {
  const database = env().LB_DATABASE_KIND;
  let databaseReachable = false;
  try {
    await db().$queryRaw`SELECT 1`;
    databaseReachable = true;
  } catch {
    databaseReachable = false;
  }
  return { ok: databaseReachable, database, databaseReachable, prometheus: "unconfigured" };
}
