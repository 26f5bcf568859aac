"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { niceScale } from "@/lib/domain/ticks";

export type IntervalRow = { label: string; interval: [number, number]; value: number };

/** Confidence intervals as ranges, one row per variant and percentile. */
export function IntervalChart({ rows }: { rows: IntervalRow[] }) {
  const { domain, ticks } = niceScale(
    Math.min(...rows.map((r) => r.interval[0])),
    Math.max(...rows.map((r) => r.interval[1])),
    8,
  );
  return (
    <div
      style={{ height: Math.max(120, rows.length * 28 + 40) }}
      className="text-slate-900 dark:text-slate-100"
      role="img"
      aria-label="95 % confidence intervals of the percentiles"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid horizontal={false} strokeOpacity={0.2} />
          <XAxis type="number" unit=" ms" tick={{ fontSize: 11 }} domain={domain} ticks={ticks} />
          <YAxis type="category" dataKey="label" width={140} tick={{ fontSize: 11 }} />
          <Tooltip
            formatter={(v) =>
              Array.isArray(v) ? `${Number(v[0]).toFixed(1)} – ${Number(v[1]).toFixed(1)} ms` : String(v)
            }
          />
          <Bar dataKey="interval" fill="#0ea5e9" isAnimationActive={false} barSize={10} radius={3} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
