import type { Metadata } from "next";
import { ServiceHeader } from "@/components/services/service-header";
import { NewSloForm } from "@/components/slo/new-slo-form";
import { SloList } from "@/components/slo/slo-list";
import { formatTarget } from "@/lib/domain/budget";
import { prometheus } from "@/lib/prometheus/instance";
import { getServiceOrThrow } from "@/lib/services/services";
import { getSloStatuses } from "@/lib/services/slos";
import { orNotFound } from "@/lib/services/pages";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `SLOs · ${(await params).slug}` };
}

export default async function SlosPage({ params }: Props) {
  const { slug } = await params;
  const [service, slos] = await orNotFound((db) =>
    Promise.all([getServiceOrThrow({ db, slug }), getSloStatuses({ db, prom: prometheus(), slug })]),
  );
  return (
    <>
      <ServiceHeader slug={slug} name={service.name} target={formatTarget(service.budget)} active="slos" />
      <div className="space-y-4">
        <SloList slug={slug} initial={slos} />
        <NewSloForm slug={slug} defaultSource={service.budget.endToEndSource ?? null} />
      </div>
    </>
  );
}
