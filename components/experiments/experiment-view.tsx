"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CdfChart } from "@/components/charts/cdf-chart";
import { IntervalChart } from "@/components/charts/interval-chart";
import { Card, EmptyState, cx } from "@/components/ui/primitives";
import { INDICATOR_LABEL } from "@/lib/domain/experiments";
import { formatChange, formatChangeInterval, formatCount } from "@/lib/domain/format";
import { queries, type ExperimentDetail } from "@/lib/queries/resources";
import { AddToCatalog } from "./add-to-catalog";
import { ComparisonTable } from "./comparison-table";
import { ImportFromPrometheus } from "./import-from-prometheus";
import { StatusPanel } from "./status-panel";
import { UploadHistory } from "./upload-history";
import { UploadPanel } from "./upload-panel";
import { P_LABEL, VariantTable } from "./variant-table";
import { Allowed } from "@/components/auth/viewer";

const VERDICT_STYLE = {
  ship: "border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950",
  "do-not-ship": "border-red-300 bg-red-50 dark:border-red-900 dark:bg-red-950",
  "trade-off": "border-violet-300 bg-violet-50 dark:border-violet-800 dark:bg-violet-950",
  inconclusive: "border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-900",
  "no-verdict": "border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950",
} as const;

export function ExperimentView({ initial }: { initial: ExperimentDetail }) {
  const queryClient = useQueryClient();
  const query = queries.experiment(initial.experiment.id);
  const { data } = useQuery({ ...query, initialData: initial });
  const { experiment, analysis, uploads } = data;
  const refresh = () => queryClient.invalidateQueries({ queryKey: query.queryKey });
  const indicator = experiment.indicators[0]!;
  const hasData = analysis.variants.some((v) => v.requests > 0);
  const isRunning = experiment.status === "running";

  return (
    <div className="space-y-4">
      <StatusPanel experiment={experiment} verdict={analysis.verdict} onChanged={refresh} />
      {isRunning ? (
        <>
          <Allowed action="experiment.upload">
            <UploadPanel experimentId={experiment.id} onUploaded={refresh} />
          </Allowed>
          <Allowed action="experiment.import" quiet>
            <ImportFromPrometheus experimentId={experiment.id} onImported={refresh} />
          </Allowed>
        </>
      ) : (
        <p className="text-sm text-slate-500">
          This experiment is {experiment.status}: results are closed. Reopen it to upload more.
        </p>
      )}
      <UploadHistory uploads={uploads} />
      {!hasData ? (
        <EmptyState title="No results yet">
          Upload per-request samples above, or send them from CI with POST /api/experiments/{experiment.id}/samples.
        </EmptyState>
      ) : (
        <>
          {analysis.srm && (
            <Card className={cx("text-sm", analysis.srm.isMismatch && "border-amber-400")}>
              <p data-testid="srm">
                Sample-ratio check: {analysis.variants.map((v) => `${v.name} ${formatCount(v.requests)}`).join(" / ")}{" "}
                against weights {analysis.variants.map((v) => v.weight).join(" / ")} — χ² ={" "}
                {analysis.srm.chiSquare.toFixed(2)}, p ={" "}
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
            {analysis.cost && (
              <p className="text-sm" data-testid="cost-change">
                Cost per 1k tokens: {formatChange(analysis.cost.relative)}{" "}
                {formatChangeInterval(analysis.cost.relativeLower, analysis.cost.relativeUpper)}
                {analysis.cost.isSignificant ? ", a real difference." : ", within the noise."}
              </p>
            )}
            {analysis.guardrail && (
              <p className="text-sm" data-testid="guardrail">
                Quality guardrail {analysis.guardrail.status}: {analysis.guardrail.description}.
              </p>
            )}
          </div>
          <VariantTable analysis={analysis} indicator={indicator} />
          <ComparisonTable analysis={analysis} />
          <Card>
            <h2 className="mb-2 font-semibold">{INDICATOR_LABEL[indicator]} distribution</h2>
            <CdfChart
              series={analysis.variants
                .filter((v) => v.indicators[indicator])
                .map((v) => ({
                  name: v.name,
                  points: v.indicators[indicator]!.cdf,
                  markers: v.indicators[indicator]!.percentiles.flatMap((q, i) =>
                    q.ok ? [{ label: P_LABEL[i]!, ms: q.value }] : [],
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
          <Allowed action="optimization.create" quiet>
            <AddToCatalog data={data} />
          </Allowed>
        </>
      )}
    </div>
  );
}
