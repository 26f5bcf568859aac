import "server-only";
import { percentileKeyOf, type PercentileKey } from "@/lib/domain/budget";
import type { Pipeline } from "@/lib/domain/optimizations";
import type { Db } from "@/lib/db/client";
import { listServiceRows } from "@/lib/db/services";
import type { Actor } from "./actor";
import { listOptimizations, type OptimizationView } from "./optimizations";

// The cost-versus-latency view's data: the catalog, and each service's pipeline with its stage
// structure (parallel components kept together) at the percentile its target is set at.

export type ServicePipeline = { slug: string; name: string; percentile: PercentileKey; pipeline: Pipeline };

export async function getTradeoffs({
  db,
  viewer,
}: {
  db: Db;
  /** Who reads it: who added each optimization by email when signed in, by name otherwise. */
  viewer?: Actor;
}): Promise<{ catalog: OptimizationView[]; services: ServicePipeline[] }> {
  const [catalog, rows] = await Promise.all([listOptimizations({ db, viewer }), listServiceRows(db)]);
  const services = rows.flatMap((row) => {
    const budget = row.budget;
    if (!budget) return [];
    const percentile = percentileKeyOf(budget.quantile) ?? "p95";
    // A component without a budget at that percentile takes no time in the plan.
    const pipeline: Pipeline = budget.stages.map((stage) => ({
      name: stage.name,
      components: stage.components.map((c) => ({ name: c.name, ms: c.budgetMs[percentile] ?? 0 })),
    }));
    return [{ slug: row.slug, name: row.name, percentile, pipeline }];
  });
  return { catalog, services };
}
