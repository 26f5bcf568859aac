import type { Metadata } from "next";
import { RevisionList } from "@/components/budget/revision-list";
import { ServiceHeader } from "@/components/services/service-header";
import { formatTarget } from "@/lib/domain/budget";
import { getBudget, listRevisions } from "@/lib/services/budgets";
import { getServiceOrThrow } from "@/lib/services/services";
import { orNotFound } from "@/lib/services/pages";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `History · ${(await params).slug}` };
}

export default async function HistoryPage({ params }: Props) {
  const { slug } = await params;
  const [service, budget, revisions] = await orNotFound((db) =>
    Promise.all([
      getServiceOrThrow({ db, slug }),
      getBudget({ db, slug }),
      listRevisions({ db, slug, query: { limit: 200 } }),
    ]),
  );
  return (
    <>
      <ServiceHeader slug={slug} name={service.name} target={formatTarget(budget)} active="history" />
      <RevisionList slug={slug} currentVersion={budget.version} revisions={revisions} />
    </>
  );
}
