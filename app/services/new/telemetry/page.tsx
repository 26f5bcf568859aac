import type { Metadata } from "next";
import Link from "next/link";
import { Allowed } from "@/components/auth/viewer";
import { TelemetryWizard } from "@/components/services/telemetry-wizard";
import { requireViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "New service from telemetry" };

export default async function NewServiceFromTelemetryPage() {
  await requireViewer();
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold">New service from telemetry</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Start from the histograms your Prometheus already has; the budgets are proposed from what they measure.{" "}
        <Link className="underline" href="/services/new">
          Start from an empty budget instead
        </Link>
        .
      </p>
      <Allowed action="service.create">
        <TelemetryWizard />
      </Allowed>
    </div>
  );
}
