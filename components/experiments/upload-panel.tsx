"use client";

import { useRef, useState } from "react";
import { Button, Card, Select } from "@/components/ui/primitives";
import { formatCount } from "@/lib/domain/format";
import { urls } from "@/lib/queries/resources";

type Outcome = {
  accepted: number;
  rejected: number;
  errors: { line: number; message: string }[];
  stored: boolean;
  message?: string;
};

/** Uploads a CSV or NDJSON file of per-request samples, with a progress bar; the server streams it. */
export function UploadPanel({ experimentId, onUploaded }: { experimentId: string; onUploaded: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [mode, setMode] = useState<"reject" | "skip">("reject");
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  function upload() {
    const file = input.current?.files?.[0];
    if (!file) return;
    const isNdjson = /\.(nd)?jsonl?$/i.test(file.name) || file.type.includes("json");
    const request = new XMLHttpRequest();
    request.open("POST", urls.samples(experimentId, mode));
    request.setRequestHeader("content-type", isNdjson ? "application/x-ndjson" : "text/csv");
    request.upload.onprogress = (e) => e.lengthComputable && setProgress(e.loaded / e.total);
    request.onload = () => {
      setProgress(null);
      let body: (Outcome & { error?: Outcome & { message: string } }) | null = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = null;
      }
      if (request.status >= 200 && request.status < 300 && body) {
        setOutcome(body);
        onUploaded();
      } else {
        const error = body?.error;
        setOutcome({
          accepted: error?.accepted ?? 0,
          rejected: error?.rejected ?? 0,
          errors: error?.errors ?? [],
          stored: false,
          message: error?.message ?? `Upload failed (HTTP ${request.status}).`,
        });
      }
    };
    request.onerror = () => {
      setProgress(null);
      setOutcome({
        accepted: 0,
        rejected: 0,
        errors: [],
        stored: false,
        message: "The upload was interrupted. Check your connection and try again.",
      });
    };
    setOutcome(null);
    setProgress(0);
    request.send(file);
  }

  return (
    <Card className="space-y-3 text-sm">
      <h2 className="font-semibold">Upload per-request samples</h2>
      <p className="text-xs text-slate-500">
        CSV with a header row, or NDJSON. Columns: <code>variant</code>, <code>ttft_ms</code>, <code>itl_ms</code>,{" "}
        <code>e2e_ms</code>, <code>tokens</code> (or <code>prompt_tokens</code> + <code>completion_tokens</code>),{" "}
        <code>cost_usd</code>, <code>quality</code>. Files of millions of rows are streamed.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={input}
          type="file"
          accept=".csv,.ndjson,.jsonl,text/csv,application/x-ndjson"
          aria-label="Samples file"
          className="text-sm"
        />
        <Select
          aria-label="Bad rows"
          value={mode}
          onChange={(e) => setMode(e.target.value as "reject" | "skip")}
          className="w-auto"
        >
          <option value="reject">reject the file if any row is bad</option>
          <option value="skip">skip bad rows, keep the rest</option>
        </Select>
        <Button variant="primary" onClick={upload} disabled={progress !== null}>
          Upload
        </Button>
      </div>
      {progress !== null && (
        <div
          role="progressbar"
          aria-label="Upload progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress * 100)}
          className="h-2 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-800"
        >
          <div className="h-full bg-sky-600 transition-all" style={{ width: `${Math.round(progress * 100)}%` }} />
        </div>
      )}
      <div aria-live="polite">
        {outcome && (
          <div
            className={outcome.stored ? "text-emerald-700 dark:text-emerald-400" : "text-red-600 dark:text-red-400"}
            data-testid="upload-outcome"
          >
            <p>
              {outcome.message ??
                `Stored ${formatCount(outcome.accepted)} rows${outcome.rejected ? `, skipped ${formatCount(outcome.rejected)} bad rows` : ""}.`}
            </p>
            {outcome.errors.length > 0 && (
              <ul className="mt-1 list-disc pl-5 text-xs text-slate-700 dark:text-slate-300" aria-label="Bad rows">
                {outcome.errors.map((e) => (
                  <li key={`${e.line}-${e.message}`}>
                    line {e.line}: {e.message}
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
