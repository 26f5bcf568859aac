"use client";

import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/primitives";
import { queries } from "@/lib/queries/resources";
import type { ActiveAlert } from "@/lib/services/alerts";

// Alert state as Prometheus sees it now, beside the thing it is about. Refreshed with the views.

export const ALERTS_REFRESH_MS = 15_000;

export function useServiceAlerts(slug: string) {
  return useQuery({ ...queries.alerts(slug), refetchInterval: ALERTS_REFRESH_MS, staleTime: 5_000 });
}

/** "firing" / "pending" badges for the alerts that match; nothing when none do. */
export function AlertBadges({ alerts, label }: { alerts: ActiveAlert[]; label: string }) {
  if (alerts.length === 0) return null;
  const firing = alerts.filter((a) => a.state === "firing");
  const state = firing.length > 0 ? "firing" : "pending";
  const title = alerts.map((a) => a.annotations.summary ?? a.name).join("\n");
  return (
    <Badge
      tone={state === "firing" ? "bad" : "warn"}
      className="ml-1 align-middle"
      aria-label={`${label}: alert ${state}`}
      title={title}
      data-testid={`alert-${label}`}
    >
      {state}
      {alerts.length > 1 ? ` ×${alerts.length}` : ""}
    </Badge>
  );
}
