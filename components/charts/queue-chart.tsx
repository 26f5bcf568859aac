"use client";

import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { CurvePoint } from "@/lib/domain/capacity";
import { niceScale } from "@/lib/domain/ticks";

/**
 * Wait against utilisation (the queueing hockey stick): the wait percentile of M/M/c at each
 * load, the queue stage's budget as a line, and where the service runs now as a dot.
 */
export function QueueChart({
  curve,
  budgetMs,
  point,
  quantileLabel,
}: {
  curve: CurvePoint[];
  budgetMs: number | null;
  point: { utilization: number; waitMs: number } | null;
  quantileLabel: string;
}) {
  const { domain, ticks } = niceScale(0, Math.max(budgetMs ?? 0, point?.waitMs ?? 0) * 3 || 1000, 6);
  const ceiling = domain[1];
  const data = curve.map((p) => ({
    utilization: Math.round(p.utilization * 1000) / 10,
    wait: Number.isFinite(p.waitQuantileMs) ? Math.min(p.waitQuantileMs, ceiling * 1.5) : null,
    mean: Number.isFinite(p.meanWaitMs) ? Math.min(p.meanWaitMs, ceiling * 1.5) : null,
  }));
  return (
    <div
      className="h-72 text-slate-900 dark:text-slate-100"
      role="img"
      aria-label={`Queue wait ${quantileLabel} against utilisation${point ? `; now at ${(point.utilization * 100).toFixed(0)} % busy, ${point.waitMs.toFixed(0)} ms` : ""}`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 24, bottom: 16, left: 8 }}>
          <CartesianGrid strokeOpacity={0.2} />
          <XAxis
            type="number"
            dataKey="utilization"
            domain={[0, 100]}
            ticks={[0, 20, 40, 60, 80, 100]}
            unit=" %"
            tick={{ fontSize: 11 }}
            label={{ value: "utilisation", position: "insideBottom", offset: -8, fontSize: 11, fill: "currentColor" }}
          />
          <YAxis
            type="number"
            domain={domain}
            ticks={ticks}
            allowDataOverflow
            unit=" ms"
            tick={{ fontSize: 11 }}
            width={70}
          />
          <Tooltip formatter={(v) => `${Math.round(Number(v))} ms`} labelFormatter={(u) => `${u} % busy`} />
          <Line
            dataKey="wait"
            name={`wait ${quantileLabel}`}
            stroke="#0ea5e9"
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
          <Line
            dataKey="mean"
            name="mean wait"
            stroke="#94a3b8"
            strokeDasharray="4 3"
            dot={false}
            isAnimationActive={false}
          />
          {budgetMs !== null && (
            <ReferenceLine
              y={budgetMs}
              stroke="#e11d48"
              strokeDasharray="6 3"
              label={{ value: `queue budget ${budgetMs} ms`, position: "insideTopLeft", fontSize: 11, fill: "#e11d48" }}
            />
          )}
          {point && (
            <ReferenceDot
              x={Math.round(point.utilization * 1000) / 10}
              y={Math.min(point.waitMs, ceiling)}
              r={6}
              fill="#f97316"
              stroke="white"
              label={{ value: "now", position: "top", fontSize: 11, fill: "currentColor" }}
            />
          )}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
