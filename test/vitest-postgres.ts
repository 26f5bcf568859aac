import type { TestProject } from "vitest/node";
import { applyMigrations } from "../lib/db/migrate/migrations";
import { startPostgresCluster } from "./postgres";

export default async function setup(project: TestProject) {
  const cluster = await startPostgresCluster();
  await applyMigrations(cluster.url);
  project.provide("databaseUrl", cluster.url);
  project.provide("databaseKind", "postgres");
  return () => cluster.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseKind: "postgres" | "embedded";
  }
}
