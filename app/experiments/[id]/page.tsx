import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ExperimentView } from "@/components/experiments/experiment-view";
import { runtime } from "@/lib/services/runtime";
import { AppError } from "@/lib/errors";
import { getAnalysis } from "@/lib/services/experiments/experiments";
import { pageActor, requireViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "Experiment" };
export const dynamic = "force-dynamic";

export default async function ExperimentPage({ params }: { params: Promise<{ id: string }> }) {
  await requireViewer();
  const { id } = await params;
  const data = await getAnalysis({ db: runtime().db, id, viewer: await pageActor() }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  const { experiment } = data;
  return (
    <div className="space-y-4">
      <div>
        <p className="text-sm text-slate-500">
          Experiment on {experiment.serviceSlug} · {experiment.variants.map((v) => `${v.name} ${v.weight}`).join(" / ")}
        </p>
        <h1 className="text-2xl font-semibold">{experiment.name}</h1>
        {experiment.hypothesis && <p className="text-slate-600 dark:text-slate-400">{experiment.hypothesis}</p>}
      </div>
      <ExperimentView initial={data} />
    </div>
  );
}
