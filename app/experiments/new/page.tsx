import type { Metadata } from "next";
import { NewExperimentForm } from "@/components/experiments/new-experiment-form";
import { runtime } from "@/lib/services/runtime";
import { listServices } from "@/lib/services/services";
import { requireViewer } from "@/lib/services/pages";
import { Allowed } from "@/components/auth/viewer";

export const metadata: Metadata = { title: "New experiment" };
export const dynamic = "force-dynamic";

export default async function NewExperimentPage() {
  await requireViewer();
  const services = await listServices({ db: runtime().db });
  return (
    <div className="mx-auto max-w-2xl space-y-4">
      <h1 className="text-2xl font-semibold">New experiment</h1>
      <Allowed action="experiment.create">
        <NewExperimentForm services={services.map((s) => ({ slug: s.slug, name: s.name }))} />
      </Allowed>
    </div>
  );
}
