import type { Metadata } from "next";
import { TradeoffView } from "@/components/tradeoffs/tradeoff-view";
import { runtime } from "@/lib/services/runtime";
import { getTradeoffs } from "@/lib/services/tradeoffs";
import { pageActor, requireViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "Cost versus latency" };
export const dynamic = "force-dynamic";

export default async function TradeoffsPage() {
  await requireViewer();
  const { catalog, services } = await getTradeoffs({ db: runtime().db, viewer: await pageActor() });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Cost versus latency</h1>
      <TradeoffView initial={catalog} services={services} />
    </div>
  );
}
