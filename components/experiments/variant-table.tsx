import { Card } from "@/components/ui/primitives";
import { INDICATOR_LABEL, type Indicator } from "@/lib/domain/experiments";
import { formatCount, formatMeasuredMs, formatUsd } from "@/lib/domain/format";
import type { Analysis } from "@/lib/domain/stats/analysis";

export const P_LABEL = ["p50", "p95", "p99"];

export function VariantTable({ analysis, indicator }: { analysis: Analysis; indicator: Indicator }) {
  const isSketched = analysis.variants.some((v) => v.indicators[indicator] && !v.indicators[indicator]!.isExact);
  return (
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
            <th className="text-right font-normal">$ / 1k tokens [95 % CI]</th>
            <th className="text-right font-normal">quality [95 % CI]</th>
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
                <td className="text-right tabular-nums">{formatCount(v.requests)}</td>
                {P_LABEL.map((p, i) => {
                  const q = summary?.percentiles[i];
                  return (
                    <td key={p} className="text-right tabular-nums">
                      {!q ? (
                        "—"
                      ) : q.ok ? (
                        <>
                          {formatMeasuredMs(q.value)}{" "}
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
                  );
                })}
                <td className="text-right tabular-nums">{formatMeasuredMs(summary?.mean)}</td>
                <td className="text-right tabular-nums">
                  {formatUsd(v.costPer1kTokens?.value)}
                  {v.costPer1kTokens?.lower != null && (
                    <span className="text-xs text-slate-500">
                      {" "}
                      [{formatUsd(v.costPer1kTokens.lower)}–{formatUsd(v.costPer1kTokens.upper)}]
                    </span>
                  )}
                </td>
                <td className="text-right tabular-nums">
                  {v.quality ? v.quality.mean.toFixed(3) : "—"}
                  {v.quality?.lower != null && (
                    <span className="text-xs text-slate-500">
                      {" "}
                      [{v.quality.lower.toFixed(3)}–{v.quality.upper!.toFixed(3)}]
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-500">
        Percentile intervals come from order statistics at exact binomial ranks (at least 95 % coverage)
        {isSketched
          ? "; above 100,000 samples a variant is summarised by a DDSketch, accurate to 0.5 % of each value"
          : ""}
        .
      </p>
    </Card>
  );
}
