import Link from "next/link";
import { Suspense } from "react";
import { ServicesSkeleton } from "@/components/services/services-skeleton";
import { runtime } from "@/lib/services/runtime";
import { listServices } from "@/lib/services/services";
import { formatMs } from "@/lib/domain/format";
import { Card, EmptyState, cx } from "@/components/ui/primitives";
import { requireViewer } from "@/lib/services/pages";

export const dynamic = "force-dynamic";

export default async function ServicesPage() {
  const viewer = await requireViewer();
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-2xl font-semibold">Services</h1>
        {viewer.can["service.create"] && (
          <Link
            href="/services/new"
            className="rounded-md bg-sky-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-sky-700"
          >
            New service
          </Link>
        )}
      </div>
      <Suspense fallback={<ServicesSkeleton />}>
        <ServiceCards />
      </Suspense>
    </div>
  );
}

async function ServiceCards() {
  const services = await listServices({ db: runtime().db });
  return (
    <>
      {services.length === 0 ? (
        <EmptyState title="No services yet">
          A service is an LLM or RAG endpoint with an end-to-end latency target.{" "}
          <Link className="text-sky-600 underline" href="/services/new">
            Create the first one
          </Link>{" "}
          and split its target over the pipeline.
        </EmptyState>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Services">
          {services.map((s) => (
            <li key={s.slug}>
              <Link href={`/services/${s.slug}/waterfall`} className="block rounded-lg focus-visible:outline-2">
                <Card className="h-full transition hover:border-sky-400">
                  <div className="flex items-baseline justify-between gap-2">
                    <h2 className="font-semibold">{s.name}</h2>
                    <code className="text-xs text-slate-500">{s.slug}</code>
                  </div>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{s.target}</p>
                  <dl className="mt-3 grid grid-cols-2 gap-1 text-sm">
                    <dt className="text-slate-500">Budget total</dt>
                    <dd className="text-right tabular-nums">{formatMs(s.stackedMs)}</dd>
                    <dt className="text-slate-500">Margin</dt>
                    <dd
                      className={cx(
                        "text-right font-medium tabular-nums",
                        s.isOverTarget ? "text-red-600 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400",
                      )}
                    >
                      {s.isOverTarget ? `over by ${formatMs(-s.marginMs)}` : formatMs(s.marginMs)}
                    </dd>
                    <dt className="text-slate-500">Stages</dt>
                    <dd className="text-right tabular-nums">
                      {s.stageCount} · {s.componentCount} components
                    </dd>
                  </dl>
                </Card>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
