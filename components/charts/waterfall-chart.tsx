"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatMeasuredMs } from "@/lib/domain/format";
import { waterfallChartHeight } from "./sizes";
import { niceScale } from "@/lib/domain/ticks";
import type { ComponentStatus } from "@/lib/domain/waterfall";

// A pure chart: rows in, SVG out. Each row is one component drawn from where its stage starts;
// parallel components share a start. The thin dark mark is the component's budget.

export type WaterfallRow = {
  label: string;
  range: [number, number] | null;
  budgetMark: [number, number] | null;
  status: ComponentStatus;
  onCriticalPath: boolean;
  actualMs: number | null;
  budgetMs: number | null;
  isLowerBound: boolean;
};

export const STATUS_COLOUR: Record<ComponentStatus, string> = {
  ok: "#16a34a",
  warn: "#d97706",
  over: "#dc2626",
  unknown: "#8b5cf6",
  nodata: "#94a3b8",
};

function TooltipBody({ active, payload }: { active?: boolean; payload?: { payload: WaterfallRow }[] }) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  return (
    <div className="rounded border border-slate-200 bg-white px-2 py-1 text-xs shadow dark:border-slate-700 dark:bg-slate-900">
      <p className="font-medium">{row.label}</p>
      <p>measured: {row.actualMs === null ? "no data" : formatMeasuredMs(row.actualMs, row.isLowerBound)}</p>
      <p>budget: {row.budgetMs === null ? "none" : `${row.budgetMs} ms`}</p>
    </div>
  );
}

export function WaterfallChart({
  rows,
  targetMs,
  stackedMs,
  measuredEndToEndMs,
}: {
  rows: WaterfallRow[];
  targetMs: number;
  stackedMs: number;
  measuredEndToEndMs: number | null;
}) {
  const height = waterfallChartHeight(rows.length);
  const maxX =
    Math.max(targetMs, stackedMs, measuredEndToEndMs ?? 0, ...rows.map((r) => r.budgetMark?.[1] ?? 0)) * 1.04;
  const { domain, ticks } = niceScale(0, maxX, 8);
  return (
    <div
      style={{ height }}
      className="text-slate-900 dark:text-slate-100"
      role="img"
      aria-label="Waterfall of measured percentiles per component against budgets"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" margin={{ top: 16, right: 24, bottom: 8, left: 8 }} barCategoryGap={6}>
          <CartesianGrid horizontal={false} strokeOpacity={0.2} />
          <XAxis type="number" domain={domain} ticks={ticks} unit=" ms" tick={{ fontSize: 11 }} />
          <YAxis yAxisId="main" type="category" dataKey="label" width={210} tick={{ fontSize: 11 }} interval={0} />
          <YAxis yAxisId="mark" type="category" dataKey="label" hide />
          <Tooltip content={<TooltipBody />} cursor={{ fillOpacity: 0.06 }} />
          <Bar yAxisId="main" dataKey="range" isAnimationActive={false} radius={2}>
            {rows.map((row, i) => (
              <Cell
                key={i}
                fill={STATUS_COLOUR[row.status]}
                stroke={row.onCriticalPath ? "currentColor" : undefined}
                strokeWidth={row.onCriticalPath ? 1.5 : 0}
              />
            ))}
          </Bar>
          <Bar yAxisId="mark" dataKey="budgetMark" isAnimationActive={false} fill="currentColor" barSize={26} />
          <ReferenceLine
            yAxisId="main"
            x={targetMs}
            stroke="#dc2626"
            strokeDasharray="4 3"
            label={{ value: `target ${targetMs} ms`, position: "top", fontSize: 11, fill: "#dc2626" }}
          />
          {measuredEndToEndMs !== null && (
            <ReferenceLine
              yAxisId="main"
              x={measuredEndToEndMs}
              stroke="#0ea5e9"
              strokeDasharray="2 2"
              label={{ value: "measured end-to-end", position: "insideBottomRight", fontSize: 10, fill: "#0ea5e9" }}
            />
          )}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
