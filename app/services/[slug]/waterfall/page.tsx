import type { Metadata } from "next";
import { WaterfallView } from "@/components/waterfall/waterfall-view";
import { TIMELINE_RANGES, timelineEnd, type TimelineRange } from "@/lib/domain/timeline";
import { orNotFound, viewOrDefault } from "@/lib/services/pages";
import { runtime } from "@/lib/services/runtime";
import { getTimelineForPage } from "@/lib/services/timeline";
import { getWaterfallForPage } from "@/lib/services/waterfall";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Waterfall · ${(await params).slug}` };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function WaterfallPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const search = await searchParams;
  const raw = {
    quantile: first(search.quantile),
    window: first(search.window),
    at: first(search.at),
    compare: first(search.compare),
  };
  const query = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ""));
  const { prom } = runtime();
  // Server-rendered first paint: the page arrives with the numbers in it, from the API's cache
  // (an incident link opened by many builds it once). A hand-edited link with a bad parameter
  // opens the default view rather than an error.
  const view = await orNotFound((db) => viewOrDefault((q) => getWaterfallForPage({ db, prom, slug, query: q }), query));
  const range = (TIMELINE_RANGES as readonly string[]).includes(first(search.range) ?? "")
    ? (first(search.range) as TimelineRange)
    : "1h";
  // The timeline arrives with the page too (from the API's cache: an incident link opened by many
  // builds it once); should it fail, the panel asks for it itself.
  const timelineParams = {
    quantile: view.quantile,
    range,
    window: view.window,
    end: raw.at ? timelineEnd(view.at, range) : undefined,
  };
  const timeline = await getTimelineForPage({ db: runtime().db, prom, slug, query: timelineParams }).catch(
    () => undefined,
  );
  return (
    <WaterfallView
      slug={slug}
      initial={view}
      params={{
        quantile: view.quantile,
        window: view.window,
        compare: raw.compare || undefined,
        at: raw.at ? view.at : undefined,
        paused: first(search.refresh) === "off",
        range,
      }}
      initialTimeline={timeline && { params: timelineParams, view: timeline }}
    />
  );
}
