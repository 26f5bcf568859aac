import type { Metadata } from "next";
import { KpiView } from "@/components/insights/kpi-view";
import { getKpis } from "@/lib/services/kpis";
import { orNotFound, viewOrDefault } from "@/lib/services/pages";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `KPIs · ${(await params).slug}` };
}

export default async function KpiPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const window = (await searchParams).window;
  const query = typeof window === "string" && window ? { window } : {};
  const { prom } = runtime();
  const view = await orNotFound((db) => viewOrDefault((q) => getKpis({ db, prom, slug, query: q }), query));
  return <KpiView slug={slug} window={view.window} initial={view} />;
}
