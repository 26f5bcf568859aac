"use client";

import {
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { niceScale } from "@/lib/domain/ticks";
import { MARKER_COLORS, type Marker } from "./markers";
import { formatTime } from "./format-time";
import { TIME_CHART_HEIGHT } from "./sizes";

// One measured line over time against a limit (a budget, a target, an alert threshold), with the
// moments that matter drawn on it: annotations, the pinned moment, the stretch over the limit,
// and the slow requests (exemplars) as dots. Clicking picks a moment.

export function TimeChart({
  label,
  points,
  start,
  end,
  limit,
  limitLabel,
  over,
  markers = [],
  pinnedAt,
  dots = [],
  format = (v) => `${v.toFixed(v < 10 ? 1 : 0)} ms`,
  tickFormat = (v) => String(Number(v.toPrecision(3))),
  extraLimits = [],
  lines = [],
  lineName = "measured",
  ceiling,
  height = TIME_CHART_HEIGHT,
  onPick,
}: {
  label: string;
  points: [number, number | null][];
  start: number;
  end: number;
  limit?: number | null;
  limitLabel?: string;
  /** From when the line has been over the limit: shaded to the end. */
  over?: number | null;
  markers?: Marker[];
  pinnedAt?: number;
  dots?: { at: number; value: number }[];
  /** The tooltip's format; ticks use tickFormat (short, no unit: the title says it). */
  format?: (value: number) => string;
  tickFormat?: (value: number) => string;
  extraLimits?: { value: number; label: string; color: string }[];
  /** More lines on the same times (e.g. burn rates over several windows), each in its colour. */
  lines?: { name: string; color: string; points: [number, number | null][] }[];
  /** The main line's name in the tooltip. */
  lineName?: string;
  /** The highest value the axis needs to show (1 for a share): no room is left above it. */
  ceiling?: number;
  height?: number;
  onPick?: (unix: number) => void;
}) {
  const data = points.map(([t, v], i) => ({
    t,
    v,
    ...Object.fromEntries(lines.map((line, j) => [`l${j}`, line.points[i]?.[1] ?? null])),
  }));
  const span = end - start;
  const values = [
    ...points.map(([, v]) => v).filter((v): v is number => v !== null),
    ...(limit != null ? [limit] : []),
    ...dots.map((d) => d.value),
    ...extraLimits.map((l) => l.value),
    ...lines.flatMap((line) => line.points.map(([, v]) => v).filter((v): v is number => v !== null)),
  ];
  // Round ticks from 0 (or the lowest value, when a line goes negative) to just above the highest.
  const high = values.length ? Math.max(...values) * 1.05 : 1;
  const { domain, ticks } = niceScale(
    Math.min(0, ...values),
    ceiling === undefined ? high : Math.min(ceiling, high),
    4,
  );
  return (
    <div style={{ height }} className="text-sky-600 dark:text-sky-400" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          data={data}
          margin={{ top: 6, right: 8, bottom: 0, left: 0 }}
          onClick={(state) => {
            const index = Number(state?.activeTooltipIndex);
            const t = Number.isInteger(index) ? data[index]?.t : Number(state?.activeLabel);
            if (onPick && t !== undefined && Number.isFinite(t)) onPick(t);
          }}
          style={onPick ? { cursor: "crosshair" } : undefined}
        >
          <CartesianGrid strokeOpacity={0.15} vertical={false} />
          <XAxis
            dataKey="t"
            type="number"
            domain={[start, end]}
            tickFormatter={(t: number) => formatTime(t, span)}
            tick={{ fontSize: 10 }}
            tickCount={5}
            stroke="currentColor"
            className="text-slate-400"
          />
          <YAxis
            domain={domain}
            ticks={ticks}
            tick={{ fontSize: 10 }}
            width={36}
            tickFormatter={(v: number) => tickFormat(v)}
            stroke="currentColor"
            className="text-slate-400"
          />
          <Tooltip
            labelFormatter={(t) => new Date(Number(t) * 1000).toLocaleString()}
            formatter={(v) => (typeof v === "number" ? format(v) : String(v))}
            contentStyle={{ fontSize: 12 }}
          />
          {over != null && <ReferenceArea x1={over} x2={end} fill="#dc2626" fillOpacity={0.08} ifOverflow="hidden" />}
          {limit != null && (
            <ReferenceLine
              y={limit}
              stroke="#dc2626"
              strokeDasharray="4 3"
              label={
                limitLabel
                  ? { value: limitLabel, position: "insideTopRight", fontSize: 10, fill: "#dc2626" }
                  : undefined
              }
            />
          )}
          {extraLimits.map((l) => (
            <ReferenceLine
              key={l.label}
              y={l.value}
              stroke={l.color}
              strokeDasharray="4 3"
              label={{ value: l.label, position: "insideTopRight", fontSize: 10, fill: l.color }}
            />
          ))}
          {markers
            .filter((m) => m.at >= start && m.at <= end)
            .map((m, i) => (
              <ReferenceLine
                key={`${m.at}-${i}`}
                x={m.at}
                stroke={MARKER_COLORS[m.kind] ?? "#64748b"}
                strokeWidth={1.5}
                strokeOpacity={0.7}
                label={{ value: "▾", position: "top", fontSize: 10, fill: MARKER_COLORS[m.kind] ?? "#64748b" }}
              />
            ))}
          {pinnedAt !== undefined && pinnedAt >= start && pinnedAt <= end && (
            <ReferenceLine x={pinnedAt} stroke="#0f172a" strokeWidth={2} className="dark:stroke-slate-100" />
          )}
          <Line
            dataKey="v"
            name={lineName}
            stroke="currentColor"
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
            connectNulls={false}
          />
          {lines.map((line, j) => (
            <Line
              key={line.name}
              dataKey={`l${j}`}
              name={line.name}
              stroke={line.color}
              strokeWidth={1.5}
              dot={false}
              isAnimationActive={false}
              connectNulls={false}
            />
          ))}
          {dots
            .filter((d) => d.at >= start && d.at <= end)
            .map((d, i) => (
              <ReferenceDot
                key={`${d.at}-${i}`}
                x={d.at}
                y={d.value}
                r={2.5}
                fill="#dc2626"
                stroke="none"
                ifOverflow="hidden"
              />
            ))}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
