import type { SloStatus } from "@/lib/services/slos";
import type { WaterfallView } from "@/lib/services/waterfall";
import { apiFetch } from "./api";

// React Query keys and fetchers for the live views. Keys hold the normalised view state, so a
// re-render with the same view never refetches.

export type WaterfallParams = { quantile: number; window: string; compare?: string; at?: number };

export const liveKeys = {
  waterfall: (slug: string, p: WaterfallParams) =>
    ["waterfall", slug, p.quantile, p.window, p.compare ?? "", p.at ?? "live"] as const,
  slos: (slug: string, at?: number) => ["slos", slug, at ?? "live"] as const,
};

export function waterfallSearch(p: WaterfallParams): string {
  const search = new URLSearchParams({ quantile: String(p.quantile), window: p.window });
  if (p.compare) search.set("compare", p.compare);
  if (p.at !== undefined) search.set("at", String(p.at));
  return search.toString();
}

export function fetchWaterfall(slug: string, p: WaterfallParams): Promise<WaterfallView> {
  return apiFetch<WaterfallView>(`/api/services/${slug}/waterfall?${waterfallSearch(p)}`);
}

export function fetchSlos(slug: string, at?: number): Promise<SloStatus[]> {
  return apiFetch<SloStatus[]>(`/api/services/${slug}/slos${at !== undefined ? `?at=${at}` : ""}`);
}
