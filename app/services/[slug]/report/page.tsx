import type { Metadata } from "next";
import { ReportView } from "@/components/insights/report-view";
import { AppError } from "@/lib/errors";
import { orNotFound } from "@/lib/services/pages";
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
  const { report } = await orNotFound((db) =>
    getReport({ db, prom, slug, query }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "VALIDATION_FAILED")
        return getReport({ db, prom, slug, query: {} });
      throw error;
    }),
  );
  return <ReportView slug={slug} window={report.window} initial={report} />;
}
