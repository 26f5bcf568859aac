import type { Metadata } from "next";
import { CapacityView } from "@/components/insights/capacity-view";
import { getLiveCapacity } from "@/lib/services/capacity";
import { orNotFound, viewOrDefault } from "@/lib/services/pages";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Capacity · ${(await params).slug}` };
}

export default async function CapacityPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const search = await searchParams;
  const query = Object.fromEntries(
    (["window", "servers"] as const).flatMap((k) =>
      typeof search[k] === "string" && search[k] ? [[k, search[k]]] : [],
    ),
  );
  const { prom } = runtime();
  const view = await orNotFound((db) => viewOrDefault((q) => getLiveCapacity({ db, prom, slug, query: q }), query));
  return (
    <CapacityView
      slug={slug}
      window={view.window}
      servers={view.serversSource === "query" ? (view.servers ?? undefined) : undefined}
      initial={view}
    />
  );
}
