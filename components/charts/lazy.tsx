"use client";

import dynamic from "next/dynamic";
import type { ComponentProps } from "react";
import type { AttainmentRing as Ring } from "./attainment-ring";
import { TIME_CHART_HEIGHT, waterfallChartHeight } from "./sizes";
import type { Sparkline as SparklineChart } from "./sparkline";
import type { TimeChart as Time } from "./time-chart";
import type { WaterfallChart as Waterfall } from "./waterfall-chart";

// The charts' code (recharts, a third of a page's JavaScript) loads after the page has painted
// and become usable: nothing of a chart is drawn on the server anyway (it needs its measured
// width), so the page's text, figures and tables arrive and paint without waiting for it. Each
// chart's space is kept from the first paint, so nothing moves when it appears.

const loadWaterfall = dynamic(() => import("./waterfall-chart").then((m) => m.WaterfallChart), { ssr: false });
const loadTime = dynamic(() => import("./time-chart").then((m) => m.TimeChart), { ssr: false });
const loadSparkline = dynamic(() => import("./sparkline").then((m) => m.Sparkline), { ssr: false });

export const AttainmentRing = dynamic<ComponentProps<typeof Ring>>(
  () => import("./attainment-ring").then((m) => m.AttainmentRing),
  { ssr: false },
);

export function WaterfallChart(props: ComponentProps<typeof Waterfall>) {
  const Chart = loadWaterfall;
  return (
    <div style={{ minHeight: waterfallChartHeight(props.rows.length) }}>
      <Chart {...props} />
    </div>
  );
}

export function TimeChart(props: ComponentProps<typeof Time>) {
  const Chart = loadTime;
  return (
    <div style={{ minHeight: props.height ?? TIME_CHART_HEIGHT }}>
      <Chart {...props} />
    </div>
  );
}

export function Sparkline(props: ComponentProps<typeof SparklineChart>) {
  const Chart = loadSparkline;
  return (
    <div className="min-h-10">
      <Chart {...props} />
    </div>
  );
}
