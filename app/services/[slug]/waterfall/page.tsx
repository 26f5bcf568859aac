import type { Metadata } from "next";
import { ServiceHeader } from "@/components/services/service-header";
import { WaterfallView } from "@/components/waterfall/waterfall-view";
import { formatTarget } from "@/lib/domain/budget";
import { prometheus } from "@/lib/prometheus/instance";
import { getWaterfall } from "@/lib/services/waterfall";
import { getServiceOrThrow } from "@/lib/services/services";
import { orNotFound } from "@/lib/services/pages";
import { AppError } from "@/lib/errors";

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
  // Server-rendered first paint: the page arrives with the numbers in it.
  const [service, view] = await orNotFound((db) =>
    Promise.all([
      getServiceOrThrow({ db, slug }),
      // A hand-edited link with a bad parameter opens the default view rather than an error.
      getWaterfall({ db, prom: prometheus(), slug, query }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "VALIDATION_FAILED")
          return getWaterfall({ db, prom: prometheus(), slug, query: {} });
        throw error;
      }),
    ]),
  );
  return (
    <>
      <ServiceHeader slug={slug} name={service.name} target={formatTarget(service.budget)} active="waterfall" />
      <WaterfallView
        slug={slug}
        initial={view}
        params={{
          quantile: view.quantile,
          window: view.window,
          compare: raw.compare || undefined,
          at: raw.at ? view.at : undefined,
          paused: first(search.refresh) === "off",
        }}
      />
    </>
  );
}
