import Link from "next/link";
import { Suspense } from "react";
import { ServicesSkeleton } from "@/components/services/services-skeleton";
import { runtime } from "@/lib/services/runtime";
import { getStatusBoard } from "@/lib/services/status";
import { StatusBoard } from "@/components/services/status-board";
import { requireViewer } from "@/lib/services/pages";

export const dynamic = "force-dynamic";

export default async function ServicesPage() {
  const viewer = await requireViewer();
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-2xl font-semibold">Status</h1>
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
        <Board />
      </Suspense>
    </div>
  );
}

async function Board() {
  const { db, prom } = runtime();
  return <StatusBoard initial={await getStatusBoard({ db, prom })} />;
}
