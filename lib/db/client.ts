import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createDb } from "./create";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { latencyBudgetsDb?: PrismaClient };

/** The process-wide client; survives Next's hot reloads in development. */
export function db(): PrismaClient {
  if (!globalForDb.latencyBudgetsDb) {
    const { DATABASE_URL, DATABASE_POOL_SIZE } = env();
    if (!DATABASE_URL) {
      throw new AppError(
        "UNAVAILABLE",
        "No database configured: start the app with npm run demo or npm start, or set DATABASE_URL.",
      );
    }
    globalForDb.latencyBudgetsDb = createDb(DATABASE_URL, DATABASE_POOL_SIZE);
  }
  return globalForDb.latencyBudgetsDb;
}
