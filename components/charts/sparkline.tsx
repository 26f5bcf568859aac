"use client";

import { Line, LineChart, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { MARKER_COLORS, type Marker } from "./markers";

/** A trend over a window: a line without axes, gaps where the value is unknown, annotations as ticks. */
export function Sparkline({
  points,
  label,
  markers = [],
}: {
  points: [number, number | null][] | undefined;
  label: string;
  markers?: Marker[];
}) {
  if (!points || points.every(([, v]) => v === null))
    return <div className="h-10 text-xs text-slate-400" aria-hidden="true" />;
  const data = points.map(([t, v]) => ({ t, v }));
  return (
    <div className="h-10 text-sky-600 dark:text-sky-400" role="img" aria-label={`Trend of ${label} over the window`}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 4, right: 2, bottom: 4, left: 2 }}>
          <XAxis hide dataKey="t" type="number" domain={["dataMin", "dataMax"]} />
          <YAxis hide domain={["auto", "auto"]} />
          {markers.map((m, i) => (
            <ReferenceLine
              key={`${m.at}-${i}`}
              x={m.at}
              stroke={MARKER_COLORS[m.kind] ?? "#64748b"}
              ifOverflow="hidden"
            />
          ))}
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
