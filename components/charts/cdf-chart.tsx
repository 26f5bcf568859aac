"use client";

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

const COLOURS = ["#0ea5e9", "#f97316", "#a855f7", "#16a34a", "#e11d48", "#64748b", "#eab308", "#14b8a6"];

export type CdfSeries = {
  name: string;
  points: { ms: number; share: number }[];
  markers: { label: string; ms: number }[];
};

/** Cumulative distribution of a latency per variant, with its percentile markers. */
export function CdfChart({ series }: { series: CdfSeries[] }) {
  return (
    <div
      className="h-72 text-slate-900 dark:text-slate-100"
      role="img"
      aria-label="Latency distribution per variant (cumulative)"
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeOpacity={0.2} />
          <XAxis type="number" dataKey="ms" unit=" ms" tick={{ fontSize: 11 }} domain={["dataMin", "dataMax"]} />
          <YAxis
            type="number"
            dataKey="share"
            domain={[0, 1]}
            tickFormatter={(v: number) => `${Math.round(v * 100)} %`}
            tick={{ fontSize: 11 }}
          />
          <Tooltip
            formatter={(value) => `${Math.round(Number(value) * 1000) / 10} %`}
            labelFormatter={(ms) => `${Number(ms).toFixed(1)} ms`}
          />
          <Legend />
          {series.map((s, i) => (
            <Line
              key={s.name}
              data={s.points}
              dataKey="share"
              name={s.name}
              type="stepAfter"
              dot={false}
              stroke={COLOURS[i % COLOURS.length]}
              isAnimationActive={false}
            />
          ))}
          {series.flatMap((s, i) =>
            s.markers.map((m) => (
              <ReferenceLine
                key={`${s.name}-${m.label}`}
                x={m.ms}
                stroke={COLOURS[i % COLOURS.length]}
                strokeDasharray="3 3"
                label={{ value: m.label, fontSize: 10, position: "top", fill: COLOURS[i % COLOURS.length] }}
              />
            )),
          )}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
