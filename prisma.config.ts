import { defineConfig } from "prisma/config";

// DATABASE_URL is only needed by `prisma migrate deploy` on machines that can run Prisma's
// native schema engine; this project's own scripts apply migrations through the wasm engine.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/latency_budgets" },
});
