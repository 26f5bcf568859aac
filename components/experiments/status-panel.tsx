"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Badge, Button, Card, Select, TextArea } from "@/components/ui/primitives";
import type { Verdict } from "@/lib/domain/stats/verdict";
import { apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import type { ExperimentView } from "@/lib/services/experiments/experiments";
import { Allowed } from "@/components/auth/viewer";

type Decision = "ship" | "do-not-ship" | "iterate";
const DECISION_TEXT: Record<Decision, string> = { ship: "ship", "do-not-ship": "do not ship", iterate: "iterate" };
const TONE = { running: "info", stopped: "warn", decided: "good" } as const;

/** Where the experiment stands (running, stopped, decided) and the decision, with who made it. */
export function StatusPanel({
  experiment,
  verdict,
  onChanged,
}: {
  experiment: ExperimentView;
  verdict: Verdict;
  onChanged: () => void;
}) {
  const [deciding, setDeciding] = useState(false);
  const [decision, setDecision] = useState<Decision>(
    verdict.decision === "ship" || verdict.decision === "do-not-ship" ? verdict.decision : "iterate",
  );
  const [note, setNote] = useState("");
  const change = useMutation({
    mutationFn: (body: { status: ExperimentView["status"]; decision?: Decision; decisionNote?: string }) =>
      apiFetch(urls.experimentStatus(experiment.id), {
        method: "PUT",
        json: { version: experiment.version, decision: null, ...body },
      }),
    onSuccess: () => {
      setDeciding(false);
      onChanged();
    },
  });

  return (
    <Card className="space-y-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span>Status</span>
        <Badge tone={TONE[experiment.status]}>
          <span data-testid="experiment-status">{experiment.status}</span>
        </Badge>
        {experiment.status === "decided" && experiment.decision && (
          <span data-testid="experiment-decision">
            Decision: <strong>{DECISION_TEXT[experiment.decision as Decision] ?? experiment.decision}</strong> by{" "}
            {experiment.decidedBy}
            {experiment.decidedAt && <> on {new Date(experiment.decidedAt).toLocaleDateString()}</>}
            {experiment.decisionNote && <> — “{experiment.decisionNote}”</>}
          </span>
        )}
        <Allowed action="experiment.status" quiet>
          <div className="ml-auto flex gap-2">
            {experiment.status === "running" && (
              <Button disabled={change.isPending} onClick={() => change.mutate({ status: "stopped" })}>
                Stop collecting
              </Button>
            )}
            {experiment.status !== "decided" && !deciding && (
              <Button variant="primary" onClick={() => setDeciding(true)}>
                Record decision…
              </Button>
            )}
            {experiment.status !== "running" && (
              <Button disabled={change.isPending} onClick={() => change.mutate({ status: "running" })}>
                Reopen
              </Button>
            )}
          </div>
        </Allowed>
      </div>
      {deciding && (
        <Form
          className="grid gap-2 sm:grid-cols-[12rem_1fr_auto] sm:items-end"
          aria-label="Record the decision"
          onSubmit={(e) => {
            e.preventDefault();
            change.mutate({ status: "decided", decision, decisionNote: note });
          }}
        >
          <Field label="Decision" hint={`The analysis says: ${verdict.decision}.`}>
            {(control) => (
              <Select {...control} value={decision} onChange={(e) => setDecision(e.target.value as Decision)}>
                <option value="ship">ship</option>
                <option value="do-not-ship">do not ship</option>
                <option value="iterate">iterate</option>
              </Select>
            )}
          </Field>
          <Field label="Why (optional)">
            {(control) => <TextArea {...control} rows={1} value={note} onChange={(e) => setNote(e.target.value)} />}
          </Field>
          <div className="flex gap-2">
            <Button type="submit" variant="primary" disabled={change.isPending}>
              Save decision
            </Button>
            <Button onClick={() => setDeciding(false)}>Cancel</Button>
          </div>
        </Form>
      )}
      <p aria-live="polite" className="text-red-600 dark:text-red-400">
        {change.error?.message}
      </p>
    </Card>
  );
}
