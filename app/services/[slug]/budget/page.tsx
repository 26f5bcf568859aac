import type { Metadata } from "next";
import { BudgetEditor } from "@/components/budget/budget-editor";
import { ServiceHeader } from "@/components/services/service-header";
import { formatTarget } from "@/lib/domain/budget";
import { getBudget } from "@/lib/services/budgets";
import { getServiceOrThrow } from "@/lib/services/services";
import { orNotFound } from "@/lib/services/pages";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Budget · ${(await params).slug}` };
}

export default async function BudgetPage({ params }: Props) {
  const { slug } = await params;
  const [service, budget] = await orNotFound((db) =>
    Promise.all([getServiceOrThrow({ db, slug }), getBudget({ db, slug })]),
  );
  return (
    <>
      <ServiceHeader slug={slug} name={service.name} target={formatTarget(budget)} active="budget" />
      <BudgetEditor initial={budget} />
    </>
  );
}
