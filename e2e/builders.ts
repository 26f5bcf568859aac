import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";

// Test data through the public API, with defaults, so specs say only what matters to them.

export function uniqueSlug(prefix = "e2e"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

type Ms = number | null;

export function component(name: string, p95: Ms, { p50 = null, p99 = null }: { p50?: Ms; p99?: Ms } = {}) {
  return { name, budgetMs: { p50, p95, p99 }, source: null };
}

export async function createService(
  request: APIRequestContext,
  overrides: {
    slug?: string;
    name?: string;
    targetMs?: number;
    stages?: { name: string; components: ReturnType<typeof component>[] }[];
  } = {},
) {
  const slug = overrides.slug ?? uniqueSlug();
  const response = await request.post("/api/services", {
    data: {
      slug,
      name: overrides.name ?? `Service ${slug}`,
      indicator: "TTFT",
      targetMs: overrides.targetMs ?? 700,
      quantile: 0.95,
      stages: overrides.stages ?? [],
    },
  });
  if (response.status() !== 201) throw new Error(`createService: ${response.status()} ${await response.text()}`);
  return slug;
}
