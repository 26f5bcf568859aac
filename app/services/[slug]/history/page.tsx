import type { Metadata } from "next";
import { RevisionList } from "@/components/budget/revision-list";
import { getBudget, listRevisions } from "@/lib/services/budgets";
import { orNotFound, pageActor } from "@/lib/services/pages";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `History · ${(await params).slug}` };
}

export default async function HistoryPage({ params }: Props) {
  const { slug } = await params;
  const viewer = await pageActor();
  const [budget, revisions] = await orNotFound((db) =>
    Promise.all([getBudget({ db, slug, viewer }), listRevisions({ db, slug, query: { limit: 200 }, viewer })]),
  );
  return <RevisionList slug={slug} currentVersion={budget.version} revisions={revisions} />;
}
