"use client";

import { useState } from "react";
import { Button, Card } from "@/components/ui/primitives";
import { formatCount } from "@/lib/domain/format";
import { apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";

/** Reads each variant's histogram by its `variant` label over the experiment's time range. */
export function ImportFromPrometheus({ experimentId, onImported }: { experimentId: string; onImported: () => void }) {
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });
  return (
    <Card className="flex flex-wrap items-center gap-3 text-sm">
      <Button
        disabled={state.busy}
        onClick={async () => {
          setState({ busy: true, message: null });
          try {
            const result = await apiFetch<{ imported: Record<string, number>; range: { start: string; end: string } }>(
              urls.importPrometheus(experimentId),
              { method: "POST" },
            );
            const counts = Object.entries(result.imported)
              .map(([v, n]) => `${v} ${formatCount(n)}`)
              .join(", ");
            setState({
              busy: false,
              message: `Imported ${counts} requests from ${new Date(result.range.start).toLocaleString()} to ${new Date(result.range.end).toLocaleString()}.`,
            });
            onImported();
          } catch (error) {
            setState({ busy: false, message: (error as Error).message });
          }
        }}
      >
        {state.busy ? "Importing…" : "Import from Prometheus"}
      </Button>
      <span className="text-xs text-slate-500">
        By the variant label over the experiment&apos;s time range (the last hour when it has none); percentiles are
        then interpolated within histogram buckets.
      </span>
      <span aria-live="polite">{state.message}</span>
    </Card>
  );
}
