"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { MetricSource } from "@/lib/domain/budget";
import { useCan } from "@/components/auth/viewer";
import { apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import type { Discovery } from "@/lib/services/discovery";
import type { SourcePreview } from "@/lib/services/slos";

// What the connected Prometheus has, for pickers: the discovered histograms (editors only; a
// viewer or an unconfigured Prometheus simply gets no suggestions) and a source's live percentiles.

/** A value that settles: it follows `value` once it has not changed for `ms`. */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function useDiscovery(match = "") {
  const settled = useDebounced(match.trim());
  const allowed = useCan("discovery.read");
  return useQuery({
    queryKey: ["discovery", settled],
    queryFn: () => apiFetch<Discovery>(urls.discovery(settled)),
    enabled: allowed,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
}

/** The source's live p50/p95/p99 and bucket bounds, refreshed as it is edited. */
export function useSourcePreview(source: MetricSource | null) {
  const key = useDebounced(source ? JSON.stringify(source) : null, 500);
  // A histogram the viewer names: not for anonymous viewers (lib/domain/rights.ts).
  const allowed = useCan("histogram.read");
  return useQuery({
    queryKey: ["source-preview", key],
    queryFn: () => apiFetch<SourcePreview>(urls.bucketBounds(), { method: "POST", json: { source: JSON.parse(key!) } }),
    enabled: key !== null && allowed,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
    retry: false,
  });
}
