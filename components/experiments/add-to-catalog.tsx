"use client";

import { useState } from "react";
import { Field } from "@/components/ui/field";
import { Button, Card, TextInput } from "@/components/ui/primitives";
import { formatChange, formatMs } from "@/lib/domain/format";
import { apiFetch } from "@/lib/queries/api";
import { urls, type ExperimentDetail } from "@/lib/queries/resources";

/** Turns the measured effect into an option on the cost-versus-latency view. */
export function AddToCatalog({ data }: { data: ExperimentDetail }) {
  const [component, setComponent] = useState("LLM first decode");
  const [message, setMessage] = useState<string | null>(null);
  const judged = data.analysis.comparisons.find(
    (c) => c.difference && c.indicator === data.experiment.indicators[0] && c.p === data.experiment.judgedPercentile,
  );
  if (!judged?.difference) return null;
  const savingMs = -judged.difference.absolute;
  const costPct = (data.analysis.cost?.relative ?? 0) * 100;
  return (
    <Card className="flex flex-wrap items-end gap-2 text-sm">
      <p className="w-full">
        Measured effect:{" "}
        {savingMs >= 0
          ? `${formatMs(Math.round(savingMs * 10) / 10)} faster`
          : `${formatMs(Math.round(-savingMs * 10) / 10)} slower`}
        , cost {formatChange(costPct / 100)}.
      </p>
      <Field label="Component it acts on">
        {(control) => <TextInput {...control} value={component} onChange={(e) => setComponent(e.target.value)} />}
      </Field>
      <Button
        onClick={async () => {
          try {
            await apiFetch(urls.optimizations(), {
              method: "POST",
              json: {
                name: data.experiment.name,
                component,
                savingMs: Math.round(savingMs * 10) / 10,
                costPct: Math.round(costPct * 10) / 10,
                source: `experiment ${data.experiment.id}`,
              },
            });
            setMessage("Added to the trade-offs catalog.");
          } catch (error) {
            setMessage((error as Error).message);
          }
        }}
      >
        Add to the trade-offs catalog
      </Button>
      <span aria-live="polite">{message}</span>
    </Card>
  );
}
