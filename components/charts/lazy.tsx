"use client";

import dynamic from "next/dynamic";
import { useSyncExternalStore, type ComponentProps } from "react";
import type { AttainmentRing as Ring } from "./attainment-ring";
import { TIME_CHART_HEIGHT, waterfallChartHeight } from "./sizes";
import type { Sparkline as SparklineChart } from "./sparkline";
import type { TimeChart as Time } from "./time-chart";
import type { WaterfallChart as Waterfall } from "./waterfall-chart";

// The charts' code (recharts, a third of a page's JavaScript) loads after the page has painted
// and become usable: nothing of a chart is drawn on the server anyway (it needs its measured
// width), so the page's text, figures and tables arrive and paint without waiting for it. Each
// chart's space is kept from the first paint, so nothing moves when it appears. A chart asks for
// its code only once the document has loaded: a page whose lower part streams in (the waterfall's
// timeline) would otherwise hydrate and fetch recharts while its HTML is still arriving.

const onLoad = (change: () => void) => {
  window.addEventListener("load", change);
  return () => window.removeEventListener("load", change);
};

/** True once the document has loaded (at once after a client-side navigation; false on the server). */
function useDocumentLoaded(): boolean {
  return useSyncExternalStore(
    onLoad,
    () => document.readyState === "complete",
    () => false,
  );
}

const loadWaterfall = dynamic(() => import("./waterfall-chart").then((m) => m.WaterfallChart), { ssr: false });
const loadTime = dynamic(() => import("./time-chart").then((m) => m.TimeChart), { ssr: false });
const loadSparkline = dynamic(() => import("./sparkline").then((m) => m.Sparkline), { ssr: false });

const loadRing = dynamic(() => import("./attainment-ring").then((m) => m.AttainmentRing), { ssr: false });

/** The ring drawn in its gauge's fixed box (the gauge draws the figure and tick at once). */
export function AttainmentRing(props: ComponentProps<typeof Ring>) {
  const Chart = loadRing;
  return useDocumentLoaded() ? <Chart {...props} /> : null;
}

export function WaterfallChart(props: ComponentProps<typeof Waterfall>) {
  const Chart = loadWaterfall;
  const loaded = useDocumentLoaded();
  return <div style={{ minHeight: waterfallChartHeight(props.rows.length) }}>{loaded && <Chart {...props} />}</div>;
}

export function TimeChart(props: ComponentProps<typeof Time>) {
  const Chart = loadTime;
  const loaded = useDocumentLoaded();
  return <div style={{ minHeight: props.height ?? TIME_CHART_HEIGHT }}>{loaded && <Chart {...props} />}</div>;
}

export function Sparkline(props: ComponentProps<typeof SparklineChart>) {
  const Chart = loadSparkline;
  const loaded = useDocumentLoaded();
  return <div className="min-h-10">{loaded && <Chart {...props} />}</div>;
}
