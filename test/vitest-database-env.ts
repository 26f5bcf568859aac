import { inject } from "vitest";
import { testPoolSize } from "./databases";

// Runs in each test worker before the test file is imported, so lib/env.ts sees the database.
process.env.DATABASE_URL = inject("databaseUrl");
process.env.LB_DATABASE_KIND = inject("databaseKind");
process.env.DATABASE_POOL_SIZE = String(testPoolSize());

if (inject("prometheusUrl" as never)) process.env.PROMETHEUS_URL = inject("prometheusUrl" as never);
process.env.LB_AUTH_SECRET ??= "integration-tests-only-secret-0123456789abcdef";
