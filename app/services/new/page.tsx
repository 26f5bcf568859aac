import type { Metadata } from "next";
import Link from "next/link";
import { NewServiceForm } from "@/components/services/new-service-form";
import { requireViewer } from "@/lib/services/pages";
import { Allowed } from "@/components/auth/viewer";

export const metadata: Metadata = { title: "New service" };

export default async function NewServicePage() {
  await requireViewer();
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-semibold">New service</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Name the endpoint and its end-to-end target. You split the target over pipeline stages next. Or{" "}
        <Link className="font-medium text-sky-700 underline dark:text-sky-400" href="/services/new/telemetry">
          build it from your telemetry
        </Link>
        : pick histograms Prometheus already has and accept proposed budgets.
      </p>
      <Allowed action="service.create">
        <NewServiceForm />
      </Allowed>
    </div>
  );
}
