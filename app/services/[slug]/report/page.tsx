import type { Metadata } from "next";
import { ReportView } from "@/components/insights/report-view";
import { orNotFound, viewOrDefault } from "@/lib/services/pages";
import { getReport } from "@/lib/services/report";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Bottleneck report · ${(await params).slug}` };
}

export default async function ReportPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const window = (await searchParams).window;
  const query = typeof window === "string" && window ? { window } : {};
  const { prom } = runtime();
  const { report } = await orNotFound((db) => viewOrDefault((q) => getReport({ db, prom, slug, query: q }), query));
  return <ReportView slug={slug} window={report.window} initial={report} />;
}
