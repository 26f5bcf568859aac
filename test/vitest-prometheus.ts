import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { applyMigrations } from "../lib/db/migrate/migrations";
import { startFixtureExporter } from "./fixture-exporter";
import { startNativeExporter } from "./native-exporter";
import { startPrometheus } from "../scripts/stack/prometheus";

// A real Prometheus scraping the fixture exporter every second, plus a database for the
// services that read budgets and SLOs.
export default async function setup(project: TestProject) {
  const exporter = await startFixtureExporter();
  const native = await startNativeExporter();
  const prometheus = await startPrometheus({
    targets: [exporter.target, native.target],
    scrapeInterval: "1s",
    flags: ["--enable-feature=native-histograms"],
  });
  const database = await startEmbeddedPostgres();
  await applyMigrations(database.url);
  // Enough scrapes that rate() at a time aligned down to 5 s, minus a few seconds for a
  // comparison, still has several points.
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  project.provide("prometheusUrl", prometheus.url);
  project.provide("databaseUrl", database.url);
  project.provide("databaseKind", "embedded");
  return async () => {
    await prometheus.close();
    await exporter.stop();
    await native.stop();
    await database.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    prometheusUrl: string;
  }
}
