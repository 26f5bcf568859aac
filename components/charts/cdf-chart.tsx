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
import { formatMeasuredMs } from "@/lib/domain/format";
import { niceScale } from "@/lib/domain/ticks";

export const SERIES_COLOURS = ["#0ea5e9", "#f97316", "#a855f7", "#16a34a", "#e11d48", "#64748b", "#eab308", "#14b8a6"];

export type CdfSeries = {
  name: string;
  points: { ms: number; share: number }[];
  markers: { label: string; ms: number }[];
};

/**
 * Cumulative distribution of a latency per variant. Percentile markers are dashed lines in the
 * variant's colour; their values are listed under the chart, where labels cannot overlap.
 */
export function CdfChart({
  series,
  label = "Latency distribution per variant (cumulative)",
}: {
  series: CdfSeries[];
  label?: string;
}) {
  const all = series.flatMap((s) => s.points.map((p) => p.ms));
  const { domain, ticks } = niceScale(Math.min(...all), Math.max(...all), 8);
  return (
    <div>
      <div className="h-72 text-slate-900 dark:text-slate-100" role="img" aria-label={label}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
            <CartesianGrid strokeOpacity={0.2} />
            <XAxis
              type="number"
              dataKey="ms"
              unit=" ms"
              tick={{ fontSize: 11 }}
              domain={domain}
              ticks={ticks}
              allowDataOverflow
            />
            <YAxis
              type="number"
              dataKey="share"
              domain={[0, 1]}
              ticks={[0, 0.25, 0.5, 0.75, 1]}
              tickFormatter={(v: number) => `${Math.round(v * 100)} %`}
              tick={{ fontSize: 11 }}
            />
            <Tooltip
              formatter={(value) => `${Math.round(Number(value) * 1000) / 10} %`}
              labelFormatter={(ms) => formatMeasuredMs(Number(ms))}
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
                stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]}
                isAnimationActive={false}
              />
            ))}
            {series.flatMap((s, i) =>
              s.markers.map((m) => (
                <ReferenceLine
                  key={`${s.name}-${m.label}`}
                  x={m.ms}
                  stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]}
                  strokeDasharray="3 3"
                />
              )),
            )}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Percentile markers">
        {series.map((s, i) => (
          <li key={s.name} style={{ color: SERIES_COLOURS[i % SERIES_COLOURS.length] }}>
            <span className="font-medium">{s.name}</span>{" "}
            {s.markers.map((m) => `${m.label} ${formatMeasuredMs(m.ms, false, 0)}`).join(" · ")}
          </li>
        ))}
      </ul>
    </div>
  );
}
