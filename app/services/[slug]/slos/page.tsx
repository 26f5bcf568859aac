import type { Metadata } from "next";
import { Suspense } from "react";
import { SloForm } from "@/components/slo/lazy-slo-form";
import { SloList } from "@/components/slo/slo-list";
import { SloListSkeleton } from "@/components/slo/slo-list-skeleton";
import { SloToolbar } from "@/components/slo/slo-toolbar";
import { getBudget } from "@/lib/services/budgets";
import { orNotFound, requireViewer } from "@/lib/services/pages";
import { runtime } from "@/lib/services/runtime";
import { getSloStatusesForPage } from "@/lib/services/slos";
import { Allowed } from "@/components/auth/viewer";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `SLOs · ${(await params).slug}` };
}

export default async function SlosPage({ params }: Props) {
  const { slug } = await params;
  // The frame (header, toolbar) goes out at once; the SLOs' figures, which ask Prometheus, stream
  // in behind a placeholder, with the form under them so nothing below moves when they arrive.
  // The service and the statuses are read together.
  await requireViewer();
  const { db, prom } = runtime();
  const service = getBudget({ db, slug });
  const slos = getSloStatusesForPage({ db, prom, slug });
  // A failure is the boundary's to show (an unknown service is the layout's 404); not unhandled here.
  service.catch(() => undefined);
  slos.catch(() => undefined);
  return (
    <div className="space-y-4">
      <SloToolbar slug={slug} />
      <Suspense fallback={<SloListSkeleton />}>
        <Slos slug={slug} service={service} slos={slos} />
      </Suspense>
    </div>
  );
}

async function Slos({
  slug,
  service,
  slos,
}: {
  slug: string;
  service: ReturnType<typeof getBudget>;
  slos: ReturnType<typeof getSloStatusesForPage>;
}) {
  const [budget, statuses] = await orNotFound(() => Promise.all([service, slos]));
  return (
    <>
      <SloList slug={slug} initial={statuses} />
      <Allowed action="slo.create">
        <SloForm slug={slug} defaultSource={budget.endToEndSource ?? null} />
      </Allowed>
    </>
  );
}
