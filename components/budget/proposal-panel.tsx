"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useFormContext } from "react-hook-form";
import { Badge, Button } from "@/components/ui/primitives";
import { plural } from "@/lib/domain/format";
import { apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import type { ProposalView } from "@/lib/services/proposal";
import type { BudgetForm } from "./form-model";

/** The verdict reads what the buckets allow: "undecided" when the target lies between their edges. */
const VERDICT = {
  fits: { tone: "good", label: "fits" },
  "does-not-fit": { tone: "bad", label: "does not fit" },
  undecided: { tone: "warn", label: "the buckets cannot decide" },
} as const;

/**
 * Budgets proposed from what the saved budget's sources measure over the last hour. Applying puts
 * them into the form, component by component (matched by name), to review and save like any edit.
 */
export function ProposalPanel({ slug }: { slug: string }) {
  const form = useFormContext<BudgetForm>();
  const [applied, setApplied] = useState<number | null>(null);
  const proposal = useMutation({
    mutationFn: () => apiFetch<ProposalView>(urls.proposal(slug)),
    onMutate: () => setApplied(null),
  });

  function apply(view: ProposalView) {
    const proposed = new Map(
      view.stages.flatMap((stage) =>
        stage.components.map((c) => [`${stage.name}\u0000${c.name}`, c.budgetMs] as const),
      ),
    );
    let count = 0;
    form.getValues("stages").forEach((stage, s) =>
      stage.components.forEach((component, c) => {
        const budgets = proposed.get(`${stage.name}\u0000${component.name}`);
        if (!budgets || (budgets.p50 === null && budgets.p95 === null && budgets.p99 === null)) return;
        form.setValue(
          `stages.${s}.components.${c}.budgetMs`,
          { ...budgets },
          { shouldDirty: true, shouldValidate: true },
        );
        count++;
      }),
    );
    setApplied(count);
  }

  return (
    <div className="space-y-2 text-sm">
      <h2 className="font-semibold">Propose from live data</h2>
      <p className="text-xs text-slate-500">
        Budgets from what each saved source measured over the last hour, the target&apos;s slack shared out where it
        buys most.
      </p>
      <Button onClick={() => proposal.mutate()} disabled={proposal.isPending}>
        {proposal.isPending ? "Measuring…" : "Propose budgets"}
      </Button>
      {proposal.error && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {proposal.error.message}
        </p>
      )}
      {proposal.data && (
        <div className="space-y-2" aria-live="polite">
          <p className="text-xs">
            <Badge tone={VERDICT[proposal.data.verdict].tone}>{VERDICT[proposal.data.verdict].label}</Badge>{" "}
            <span data-testid="editor-proposal-note">{proposal.data.note}</span>
          </p>
          <Button variant="primary" onClick={() => apply(proposal.data!)}>
            Apply to the form
          </Button>
          {applied !== null && (
            <p role="status" className="text-xs text-emerald-700 dark:text-emerald-400">
              Proposed budgets put on {plural(applied, "component")}: review them, then save.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
