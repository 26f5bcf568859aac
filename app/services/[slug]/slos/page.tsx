import type { Metadata } from "next";
import { SloForm } from "@/components/slo/lazy-slo-form";
import { SloList } from "@/components/slo/slo-list";
import { SloToolbar } from "@/components/slo/slo-toolbar";
import { orNotFound } from "@/lib/services/pages";
import { runtime } from "@/lib/services/runtime";
import { getServiceOrThrow } from "@/lib/services/services";
import { getSloStatusesForPage } from "@/lib/services/slos";
import { Allowed } from "@/components/auth/viewer";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `SLOs · ${(await params).slug}` };
}

export default async function SlosPage({ params }: Props) {
  const { slug } = await params;
  const [service, slos] = await orNotFound((db) =>
    Promise.all([getServiceOrThrow({ db, slug }), getSloStatusesForPage({ db, prom: runtime().prom, slug })]),
  );
  return (
    <div className="space-y-4">
      <SloToolbar slug={slug} />
      <SloList slug={slug} initial={slos} />
      <Allowed action="slo.create">
        <SloForm slug={slug} defaultSource={service.budget.endToEndSource ?? null} />
      </Allowed>
    </div>
  );
}
