import type { Metadata } from "next";
import { TradeoffView } from "@/components/tradeoffs/tradeoff-view";
import { db } from "@/lib/db/client";
import { stageTime } from "@/lib/domain/budget";
import { getBudget } from "@/lib/services/budgets";
import { listOptimizations } from "@/lib/services/optimizations";
import { listServices } from "@/lib/services/services";

export const metadata: Metadata = { title: "Cost versus latency" };
export const dynamic = "force-dynamic";

export default async function TradeoffsPage() {
  const database = db();
  const [catalog, services] = await Promise.all([listOptimizations({ db: database }), listServices({ db: database })]);
  // Each stage's critical-path component at p95 stands for the stage: that is the time an optimization can cut.
  const components = await Promise.all(
    services.map(async (s) => {
      const budget = await getBudget({ db: database, slug: s.slug });
      const componentMs = Object.fromEntries(
        budget.stages.flatMap((stage) => {
          const t = stageTime(stage, "p95");
          return t.ms !== null && t.criticalComponent ? [[t.criticalComponent, t.ms]] : [];
        }),
      );
      return { slug: s.slug, name: s.name, componentMs };
    }),
  );
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Cost versus latency</h1>
      <TradeoffView initial={catalog} services={components} />
    </div>
  );
}
