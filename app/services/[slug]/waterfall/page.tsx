import type { Metadata } from "next";
import { WaterfallView } from "@/components/waterfall/waterfall-view";
import { TIMELINE_RANGES, timelineEnd, type TimelineRange } from "@/lib/domain/timeline";
import { orNotFound, requireViewer } from "@/lib/services/pages";
import { runtime } from "@/lib/services/runtime";
import { getTimelineForPage } from "@/lib/services/timeline";
import { getWaterfallForPage, waterfallPageQuery } from "@/lib/services/waterfall";

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
  const { db, prom } = runtime();
  const range = (TIMELINE_RANGES as readonly string[]).includes(first(search.range) ?? "")
    ? (first(search.range) as TimelineRange)
    : "1h";
  // Both reads start together, once the viewer may look: the waterfall (the page's first paint,
  // its headline figures) and the timeline under it, which streams in behind a placeholder of
  // its size. Both come from the API's caches (an incident link opened by many builds each
  // once). A hand-edited link with a bad parameter opens the default view rather than an error.
  await requireViewer();
  const resolved = waterfallPageQuery(prom, query);
  const timelineParams = {
    quantile: resolved.quantile,
    range,
    window: resolved.window,
    end: raw.at && resolved.valid ? timelineEnd(resolved.at, range) : undefined,
  };
  // Should the timeline fail, the panel asks for it itself.
  const timeline = getTimelineForPage({ db, prom, slug, query: timelineParams }).then(
    (view) => ({ params: timelineParams, view }),
    () => undefined,
  );
  const view = await orNotFound((database) =>
    getWaterfallForPage({ db: database, prom, slug, query: resolved.valid ? query : {} }),
  );
  return (
    <WaterfallView
      slug={slug}
      initial={view}
      params={{
        quantile: view.quantile,
        window: view.window,
        compare: raw.compare || undefined,
        at: raw.at && resolved.valid ? view.at : undefined,
        paused: first(search.refresh) === "off",
        range,
      }}
      initialTimeline={timeline}
    />
  );
}
