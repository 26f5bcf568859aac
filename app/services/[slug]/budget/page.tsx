import type { Metadata } from "next";
import { BudgetEditor } from "@/components/budget/budget-editor";
import { getBudget } from "@/lib/services/budgets";
import { orNotFound, pageActor } from "@/lib/services/pages";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Budget · ${(await params).slug}` };
}

export default async function BudgetPage({ params }: Props) {
  const { slug } = await params;
  const viewer = await pageActor();
  return <BudgetEditor initial={await orNotFound((db) => getBudget({ db, slug, viewer }))} />;
}
