import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { applyMigrations } from "../lib/db/migrate/migrations";

export default async function setup(project: TestProject) {
  const embedded = await startEmbeddedPostgres();
  await applyMigrations(embedded.url);
  project.provide("databaseUrl", embedded.url);
  project.provide("databaseKind", "embedded");
  return () => embedded.stop();
}
