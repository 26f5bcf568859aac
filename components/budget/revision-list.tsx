"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, Card, EmptyState } from "@/components/ui/primitives";
import { formatTarget } from "@/lib/domain/budget";
import { apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import type { BudgetView, RevisionView } from "@/lib/services/budgets";
import { Allowed } from "@/components/auth/viewer";

export function RevisionList({
  slug,
  currentVersion,
  revisions,
}: {
  slug: string;
  currentVersion: number;
  revisions: RevisionView[];
}) {
  const router = useRouter();
  const [confirming, setConfirming] = useState<number | null>(null);
  const restore = useMutation({
    mutationFn: (revision: number) =>
      apiFetch<BudgetView>(urls.restore(slug, revision), {
        method: "POST",
        json: { version: currentVersion },
      }),
    onSuccess: () => {
      setConfirming(null);
      router.refresh();
    },
  });

  if (revisions.length === 0) return <EmptyState title="No revisions yet" />;

  return (
    <div className="space-y-3">
      <div aria-live="polite" className="text-sm">
        {restore.error && <p className="text-red-600 dark:text-red-400">{restore.error.message}</p>}
        {restore.isSuccess && (
          <p className="text-emerald-700 dark:text-emerald-400">Restored as version {restore.data.version}.</p>
        )}
      </div>
      <ol className="space-y-3" aria-label="Revisions">
        {revisions.map((revision) => (
          <li key={revision.version}>
            <Card>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="font-medium">
                  Version {revision.version}
                  {revision.version === currentVersion && (
                    <span className="ml-2 rounded bg-sky-100 px-1.5 text-xs text-sky-800 dark:bg-sky-900 dark:text-sky-200">
                      current
                    </span>
                  )}
                </h2>
                <p className="text-sm text-slate-500">
                  {revision.author} ·{" "}
                  <time dateTime={revision.createdAt}>{new Date(revision.createdAt).toLocaleString()}</time>
                </p>
              </div>
              {revision.message && <p className="mt-1 text-sm italic">“{revision.message}”</p>}
              <p className="mt-1 text-xs text-slate-500">
                {formatTarget(revision.snapshot)} · {revision.snapshot.stages.length} stages
              </p>
              <ul className="mt-2 list-disc pl-5 text-sm" aria-label={`Changes in version ${revision.version}`}>
                {revision.changes.length === 0 ? (
                  <li>No changes to the budget.</li>
                ) : (
                  revision.changes.map((c, i) => <li key={i}>{c.summary}</li>)
                )}
              </ul>
              {revision.version !== currentVersion && (
                <div className="mt-3 flex gap-2">
                  {confirming === revision.version ? (
                    <>
                      <Button
                        variant="primary"
                        disabled={restore.isPending}
                        onClick={() => restore.mutate(revision.version)}
                      >
                        {restore.isPending ? "Restoring…" : `Restore version ${revision.version} as a new version`}
                      </Button>
                      <Button onClick={() => setConfirming(null)}>Cancel</Button>
                    </>
                  ) : (
                    <Allowed action="budget.restore" quiet>
                      <Button onClick={() => setConfirming(revision.version)}>Restore…</Button>
                    </Allowed>
                  )}
                </div>
              )}
            </Card>
          </li>
        ))}
      </ol>
    </div>
  );
}
