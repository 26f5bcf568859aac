import type { Metadata } from "next";
import Link from "next/link";
import { Badge, Card, EmptyState } from "@/components/ui/primitives";
import { runtime } from "@/lib/services/runtime";
import { listExperimentsWithVerdicts } from "@/lib/services/experiments/experiments";
import { pageActor, requireViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "Experiments" };
export const dynamic = "force-dynamic";

export default async function ExperimentsPage() {
  const viewer = await requireViewer();
  const experiments = await listExperimentsWithVerdicts({ db: runtime().db, viewer: await pageActor() });
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-2xl font-semibold">Experiments</h1>
        {viewer.can["experiment.create"] && (
          <Link
            href="/experiments/new"
            className="rounded-md bg-sky-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-sky-700"
          >
            New experiment
          </Link>
        )}
      </div>
      {experiments.length === 0 ? (
        <EmptyState title="No experiments yet">
          An experiment compares variants of a service on latency percentiles, cost per 1k tokens and a quality
          guardrail.{" "}
          <Link className="text-sky-600 underline" href="/experiments/new">
            Create one
          </Link>{" "}
          and upload its per-request samples.
        </EmptyState>
      ) : (
        <ul className="space-y-2" aria-label="Experiments">
          {experiments.map((e) => (
            <li key={e.id}>
              <Link href={`/experiments/${e.id}`} className="block">
                <Card className="hover:border-sky-400">
                  <div className="flex items-baseline justify-between">
                    <h2 className="font-semibold">{e.name}</h2>
                    <span className="text-xs text-slate-500">
                      {e.serviceSlug} · {e.variants.map((v) => `${v.name} ${v.weight}`).join(" / ")}
                    </span>
                  </div>
                  {e.hypothesis && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{e.hypothesis}</p>}
                  <p className="mt-1 flex flex-wrap items-baseline gap-x-2 text-sm" data-testid="experiment-line">
                    <Badge tone={e.status === "decided" ? "good" : e.status === "running" ? "info" : "neutral"}>
                      {e.status}
                    </Badge>
                    {e.decision && (
                      <span className="font-medium">
                        decided: {e.decision}
                        {e.decidedBy ? ` by ${e.decidedBy}` : ""}
                      </span>
                    )}
                    <span className="text-slate-600 dark:text-slate-400">{e.verdict.sentence}</span>
                  </p>
                </Card>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
