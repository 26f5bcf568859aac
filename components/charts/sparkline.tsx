"use client";

import { Line, LineChart, ResponsiveContainer, YAxis } from "recharts";

/** A KPI's trend over the window: a line without axes; gaps where the value is unknown. */
export function Sparkline({ points, label }: { points: [number, number | null][] | undefined; label: string }) {
  if (!points || points.every(([, v]) => v === null))
    return <div className="h-10 text-xs text-slate-400" aria-hidden="true" />;
  const data = points.map(([t, v]) => ({ t, v }));
  return (
    <div className="h-10 text-sky-600 dark:text-sky-400" role="img" aria-label={`Trend of ${label} over the window`}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 4, right: 2, bottom: 4, left: 2 }}>
          <YAxis hide domain={["auto", "auto"]} />
          <Line
            dataKey="v"
            stroke="currentColor"
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
            connectNulls={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
