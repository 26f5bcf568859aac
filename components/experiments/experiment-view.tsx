"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CdfChart } from "@/components/charts/cdf-chart";
import { IntervalChart } from "@/components/charts/interval-chart";
import { Button, Card, EmptyState, cx } from "@/components/ui/primitives";
import type { ExperimentRow } from "@/lib/db/experiments";
import { apiFetch } from "@/lib/queries/api";
import { INDICATOR_LABEL, type Indicator } from "@/lib/schemas/experiment";
import type { Analysis } from "@/lib/services/experiments/analyse";
import { UploadPanel } from "./upload-panel";

type Data = { experiment: ExperimentRow; analysis: Analysis };

const P_LABEL = ["p50", "p95", "p99"];
const ms = (v: number) => `${v.toFixed(1)} ms`;
const signedPct = (v: number) => `${v > 0 ? "+" : ""}${(v * 100).toFixed(1)} %`;

const VERDICT_STYLE = {
  ship: "border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950",
  "do-not-ship": "border-red-300 bg-red-50 dark:border-red-900 dark:bg-red-950",
  inconclusive: "border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-900",
  "no-verdict": "border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950",
} as const;

export function ExperimentView({ initial }: { initial: Data }) {
  const queryClient = useQueryClient();
  const key = ["experiment", initial.experiment.id] as const;
  const { data } = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<Data>(`/api/experiments/${initial.experiment.id}/analysis`),
    initialData: initial,
  });
  const { experiment, analysis } = data;
  const indicator = experiment.indicators[0] as Indicator;
  const hasData = analysis.variants.some((v) => v.requests > 0);

  return (
    <div className="space-y-4">
      <UploadPanel experimentId={experiment.id} onUploaded={() => queryClient.invalidateQueries({ queryKey: key })} />
      <ImportFromPrometheus
        experimentId={experiment.id}
        onImported={() => queryClient.invalidateQueries({ queryKey: key })}
      />
      {!hasData ? (
        <EmptyState title="No results yet">
          Upload per-request samples above, or send them from CI with POST /api/experiments/{experiment.id}/samples.
        </EmptyState>
      ) : (
        <>
          {analysis.srm && (
            <Card className={cx("text-sm", analysis.srm.isMismatch && "border-amber-400")}>
              <p data-testid="srm">
                Sample-ratio check:{" "}
                {analysis.variants.map((v) => `${v.name} ${v.requests.toLocaleString()}`).join(" / ")} against weights{" "}
                {analysis.variants.map((v) => v.weight).join(" / ")} — χ² = {analysis.srm.chiSquare.toFixed(2)}, p ={" "}
                {analysis.srm.pValue < 0.0001 ? analysis.srm.pValue.toExponential(1) : analysis.srm.pValue.toFixed(4)}.{" "}
                {analysis.srm.isMismatch ? (
                  <strong>Mismatch (p &lt; 0.001): the assignment is broken, so there is no verdict.</strong>
                ) : (
                  "No mismatch."
                )}
              </p>
            </Card>
          )}
          <div role="status" className={cx("rounded-lg border p-4", VERDICT_STYLE[analysis.verdict.decision])}>
            <p className="text-lg font-semibold" data-testid="verdict">
              {analysis.verdict.sentence}
            </p>
            {analysis.guardrail && <p className="text-sm">Guardrail: {analysis.guardrail.description}.</p>}
          </div>
          <Card className="overflow-x-auto">
            <table className="w-full text-sm" aria-label="Variants">
              <thead>
                <tr className="text-left text-xs text-slate-500">
                  <th className="font-normal">Variant</th>
                  <th className="text-right font-normal">n</th>
                  {P_LABEL.map((p) => (
                    <th key={p} className="text-right font-normal">
                      {INDICATOR_LABEL[indicator]} {p} [95 % CI]
                    </th>
                  ))}
                  <th className="text-right font-normal">mean</th>
                  <th className="text-right font-normal">$ / 1k tokens</th>
                  <th className="text-right font-normal">quality</th>
                </tr>
              </thead>
              <tbody>
                {analysis.variants.map((v) => {
                  const summary = v.indicators[indicator];
                  return (
                    <tr
                      key={v.name}
                      data-testid={`variant-${v.name}`}
                      className="border-t border-slate-100 dark:border-slate-800"
                    >
                      <td className="py-1 font-medium">{v.name}</td>
                      <td className="text-right tabular-nums">{v.requests.toLocaleString()}</td>
                      {summary
                        ? summary.percentiles.map((q, i) => (
                            <td key={i} className="text-right tabular-nums">
                              {q.ok ? (
                                <>
                                  {ms(q.value)}{" "}
                                  <span className="text-xs text-slate-500">
                                    [{q.lower.toFixed(0)}–{q.upper.toFixed(0)}]
                                  </span>
                                </>
                              ) : (
                                <span className="text-xs text-slate-500" title={q.reason}>
                                  need {q.needed} samples
                                </span>
                              )}
                            </td>
                          ))
                        : P_LABEL.map((p) => (
                            <td key={p} className="text-right">
                              —
                            </td>
                          ))}
                      <td className="text-right tabular-nums">{summary?.mean != null ? ms(summary.mean) : "—"}</td>
                      <td className="text-right tabular-nums">
                        {v.costPer1kTokens ? `$${v.costPer1kTokens.value.toFixed(4)}` : "—"}
                      </td>
                      <td className="text-right tabular-nums">{v.quality ? v.quality.mean.toFixed(3) : "—"}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <p className="mt-2 text-xs text-slate-500">
              Intervals are order-statistic (“outer”) 95 % intervals
              {analysis.variants.some((v) => v.indicators[indicator] && !v.indicators[indicator]!.isExact)
                ? "; above 100,000 samples a variant is summarised by a DDSketch, accurate to 0.5 % of each value"
                : ""}
              .
            </p>
          </Card>
          <Card className="overflow-x-auto">
            <h2 className="mb-2 font-semibold">Treatment against control</h2>
            <table className="w-full text-sm" aria-label="Differences">
              <thead>
                <tr className="text-left text-xs text-slate-500">
                  <th className="font-normal">Variant</th>
                  <th className="font-normal">Percentile</th>
                  <th className="text-right font-normal">Δ</th>
                  <th className="text-right font-normal">relative [95 % CI]</th>
                  <th className="font-normal">Significant</th>
                </tr>
              </thead>
              <tbody>
                {analysis.comparisons.map((c) => (
                  <tr
                    key={`${c.variant}-${c.indicator}-${c.p}`}
                    className="border-t border-slate-100 dark:border-slate-800"
                  >
                    <td className="py-1">{c.variant}</td>
                    <td>
                      {INDICATOR_LABEL[c.indicator]} p{Math.round(c.p * 100)}
                    </td>
                    {c.difference ? (
                      <>
                        <td className="text-right tabular-nums">{ms(c.difference.absolute)}</td>
                        <td className="text-right tabular-nums">
                          {signedPct(c.difference.relative)}{" "}
                          <span className="text-xs text-slate-500">
                            [{signedPct(c.difference.relativeLower)}, {signedPct(c.difference.relativeUpper)}]
                          </span>
                        </td>
                        <td className={c.difference.isSignificant ? "font-medium" : "text-slate-500"}>
                          {c.difference.isSignificant ? "yes" : "no"}
                        </td>
                      </>
                    ) : (
                      <td colSpan={3} className="text-xs text-slate-500">
                        {c.reason}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
          <Card>
            <h2 className="mb-2 font-semibold">{INDICATOR_LABEL[indicator]} distribution</h2>
            <CdfChart
              series={analysis.variants
                .filter((v) => v.indicators[indicator])
                .map((v) => ({
                  name: v.name,
                  points: v.indicators[indicator]!.cdf,
                  markers: v.indicators[indicator]!.percentiles.flatMap((q, i) =>
                    q.ok ? [{ label: `${v.name} ${P_LABEL[i]}`, ms: q.value }] : [],
                  ),
                }))}
            />
            <IntervalChart
              rows={analysis.variants.flatMap((v) =>
                (v.indicators[indicator]?.percentiles ?? []).flatMap((q, i) =>
                  q.ok
                    ? [
                        {
                          label: `${v.name} ${P_LABEL[i]}`,
                          interval: [q.lower, q.upper] as [number, number],
                          value: q.value,
                        },
                      ]
                    : [],
                ),
              )}
            />
          </Card>
          <AddToCatalog data={data} />
        </>
      )}
    </div>
  );
}

/** Turns the measured effect into an option on the cost-versus-latency view. */
function AddToCatalog({ data }: { data: Data }) {
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
        Measured effect: {savingMs >= 0 ? `${savingMs.toFixed(1)} ms faster` : `${(-savingMs).toFixed(1)} ms slower`},
        cost {costPct >= 0 ? "+" : ""}
        {costPct.toFixed(1)} %.
      </p>
      <label className="flex flex-col gap-1">
        Component it acts on
        <input
          className="rounded-md border border-slate-300 px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
          value={component}
          onChange={(e) => setComponent(e.target.value)}
        />
      </label>
      <Button
        onClick={async () => {
          try {
            await apiFetch("/api/optimizations", {
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

/** Reads each variant's histogram by its `variant` label over the experiment's time range. */
function ImportFromPrometheus({ experimentId, onImported }: { experimentId: string; onImported: () => void }) {
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });
  return (
    <Card className="flex flex-wrap items-center gap-3 text-sm">
      <Button
        disabled={state.busy}
        onClick={async () => {
          setState({ busy: true, message: null });
          try {
            const result = await apiFetch<{ imported: Record<string, number>; range: { start: string; end: string } }>(
              `/api/experiments/${experimentId}/import-prometheus`,
              { method: "POST" },
            );
            setState({
              busy: false,
              message: `Imported ${Object.entries(result.imported)
                .map(([v, n]) => `${v} ${n.toLocaleString()}`)
                .join(
                  ", ",
                )} requests from ${new Date(result.range.start).toLocaleString()} to ${new Date(result.range.end).toLocaleString()}.`,
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
