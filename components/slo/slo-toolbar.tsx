"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState, type DragEvent } from "react";
import { Button, Card, cx } from "@/components/ui/primitives";
import { ApiError, apiFetch } from "@/lib/queries/api";
import { queries, urls } from "@/lib/queries/resources";
import type { Imported } from "@/lib/services/openslo";
import { Allowed } from "@/components/auth/viewer";

const link = "text-sky-700 underline dark:text-sky-400";

/** SLOs in and out of the Prometheus ecosystem: rule files, PrometheusRule, OpenSLO. */
export function SloToolbar({ slug }: { slug: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const upload = useMutation({
    mutationFn: async (file: File) =>
      apiFetch<{ imported: Imported[] }>(urls.openSloImport(), {
        method: "POST",
        headers: { "content-type": "application/yaml" },
        body: await file.text(),
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queries.slos(slug).queryKey });
      router.refresh();
    },
  });

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) upload.mutate(file);
  }

  const problems = upload.error instanceof ApiError ? upload.error.body.fields : undefined;
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <p>
          Alerting rules:{" "}
          <a className={link} href={urls.rules(slug)} download>
            Download rules
          </a>{" "}
          ·{" "}
          <a className={link} href={urls.rules(slug, "prometheusrule")} download>
            PrometheusRule
          </a>{" "}
          · OpenSLO:{" "}
          <a className={link} href={urls.openslo(slug)} download>
            Export
          </a>
        </p>
        <Allowed action="openslo.import" quiet>
          <div
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            data-testid="openslo-drop"
            className={cx(
              "flex items-center gap-2 rounded border border-dashed px-3 py-1.5",
              dragging ? "border-sky-600 bg-sky-50 dark:bg-sky-950" : "border-slate-300 dark:border-slate-700",
            )}
          >
            <span className="text-slate-600 dark:text-slate-400">Drop OpenSLO YAML here or</span>
            <Button onClick={() => input.current?.click()} disabled={upload.isPending}>
              {upload.isPending ? "Importing…" : "Import OpenSLO…"}
            </Button>
            <input
              ref={input}
              type="file"
              accept=".yaml,.yml,application/yaml,text/yaml"
              className="sr-only"
              aria-label="OpenSLO file"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) upload.mutate(file);
                e.target.value = "";
              }}
            />
          </div>
        </Allowed>
      </div>
      <div aria-live="polite" className="mt-2 text-sm">
        {upload.data && (
          <p className="text-emerald-700 dark:text-emerald-400" data-testid="openslo-result">
            Imported: {upload.data.imported.map((i) => `${i.kind} “${i.name}” (${i.service}) ${i.action}`).join("; ")}.
          </p>
        )}
        {upload.error && (
          <div className="text-red-600 dark:text-red-400" data-testid="openslo-error">
            <p>{problems ? "Nothing was imported:" : upload.error.message}</p>
            {problems && (
              <ul className="list-disc pl-5">
                {Object.entries(problems).map(([path, message]) => (
                  <li key={path}>
                    <code>{path}</code>: {message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}
