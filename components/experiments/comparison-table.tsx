import { Card } from "@/components/ui/primitives";
import { INDICATOR_LABEL } from "@/lib/domain/experiments";
import { formatChange, formatChangeInterval, formatSignedMs } from "@/lib/domain/format";
import type { Analysis } from "@/lib/domain/stats/analysis";

/** Treatment against control: both intervals shown, and "significant" exactly when both exclude 0. */
export function ComparisonTable({ analysis }: { analysis: Analysis }) {
  return (
    <Card className="overflow-x-auto">
      <h2 className="mb-2 font-semibold">Treatment against control</h2>
      <table className="w-full text-sm" aria-label="Differences">
        <thead>
          <tr className="text-left text-xs text-slate-500">
            <th className="font-normal">Variant</th>
            <th className="font-normal">Percentile</th>
            <th className="text-right font-normal">Δ [95 % CI]</th>
            <th className="text-right font-normal">relative [95 % CI]</th>
            <th className="pl-4 font-normal">Significant</th>
          </tr>
        </thead>
        <tbody>
          {analysis.comparisons.map((c) => (
            <tr key={`${c.variant}-${c.indicator}-${c.p}`} className="border-t border-slate-100 dark:border-slate-800">
              <td className="py-1">{c.variant}</td>
              <td>
                {INDICATOR_LABEL[c.indicator]} p{Math.round(c.p * 100)}
              </td>
              {c.difference ? (
                <>
                  <td className="text-right tabular-nums">
                    {formatSignedMs(c.difference.absolute)}{" "}
                    <span className="text-xs text-slate-500">
                      [{formatSignedMs(c.difference.absoluteLower)}, {formatSignedMs(c.difference.absoluteUpper)}]
                    </span>
                  </td>
                  <td className="text-right tabular-nums">
                    {formatChange(c.difference.relative)}{" "}
                    <span className="text-xs text-slate-500">
                      {formatChangeInterval(c.difference.relativeLower, c.difference.relativeUpper)}
                    </span>
                  </td>
                  <td className={c.difference.isSignificant ? "pl-4 font-medium" : "pl-4 text-slate-500"}>
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
      <p className="mt-2 text-xs text-slate-500">
        The relative interval is Fieller&apos;s interval for the ratio of the two percentiles: it excludes 0 exactly
        when the absolute one does, so “significant” never contradicts the numbers beside it.
      </p>
    </Card>
  );
}
