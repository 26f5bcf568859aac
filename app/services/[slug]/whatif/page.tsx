import type { Metadata } from "next";
import { WhatIfView } from "@/components/insights/whatif-view";
import { AppError } from "@/lib/errors";
import { getBudgetForLiveView } from "@/lib/services/budgets";
import { orNotFound } from "@/lib/services/pages";
import { runtime } from "@/lib/services/runtime";
import { getWhatIf } from "@/lib/services/whatif";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `What-if · ${(await params).slug}` };
}

const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const one = (value: string | string[] | undefined) => (typeof value === "string" && value ? value : undefined);

export default async function WhatIfPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const search = await searchParams;
  const change = list(search.change);
  const base = Object.fromEntries(
    Object.entries({ quantile: one(search.quantile), window: one(search.window) }).filter(([, v]) => v !== undefined),
  );
  const { prom } = runtime();
  // A link whose changes cannot apply still opens: the view shows why, next to the form.
  const { budget, view } = await orNotFound(async (db) => {
    const budget = await getBudgetForLiveView({ db, slug });
    const view = await getWhatIf({ db, prom, slug, query: { ...base, change } }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "VALIDATION_FAILED") return null;
      throw error;
    });
    return { budget, view };
  });
  return (
    <WhatIfView
      slug={slug}
      params={{ quantile: view?.quantile ?? 0.95, window: view?.window ?? "5m", change }}
      components={budget.stages.flatMap((s) => s.components.map((c) => c.name))}
      initial={view}
    />
  );
}
