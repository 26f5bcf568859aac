import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const shared = {
  resolve: {
    alias: {
      "@/": root,
      // Server-only guards are for Next's bundles; tests run server code directly.
      "server-only": fileURLToPath(new URL("./test/empty-module.ts", import.meta.url)),
    },
  },
};

// The same integration suite runs twice: against a throwaway PostgreSQL 15 cluster and
// against the embedded PGlite database the demo uses.
const integration = (name: "postgres" | "embedded") => ({
  ...shared,
  test: {
    name: `integration-${name}`,
    include: ["**/*.integration.test.ts"],
    exclude: ["node_modules/**", ".next/**"],
    globalSetup: [`test/vitest-${name}.ts`],
    setupFiles: ["test/vitest-database-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        ...shared,
        test: {
          name: "unit",
          include: [
            "lib/**/*.test.ts",
            "components/**/*.test.ts",
            "scripts/**/*.test.ts",
            "test/**/*.test.ts",
            "app/**/*.test.ts",
            "bench/**/*.test.ts",
          ],
          exclude: ["**/*.integration.test.ts", "**/*.prometheus.test.ts", "**/*.instances.test.ts", "node_modules/**"],
          setupFiles: ["test/vitest-properties.ts"],
        },
      },
      integration("postgres"),
      integration("embedded"),
      {
        // Real app processes (the production build) on one PostgreSQL cluster.
        ...shared,
        test: {
          name: "instances",
          include: ["**/*.instances.test.ts"],
          exclude: ["node_modules/**", ".next/**"],
          globalSetup: ["test/vitest-postgres.ts"],
          setupFiles: ["test/vitest-database-env.ts"],
          testTimeout: 30_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        ...shared,
        test: {
          name: "prometheus",
          include: ["**/*.prometheus.test.ts"],
          exclude: ["node_modules/**", ".next/**"],
          globalSetup: ["test/vitest-prometheus.ts"],
          setupFiles: ["test/vitest-database-env.ts"],
          testTimeout: 30_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
