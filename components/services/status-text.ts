import { formatPercent } from "@/lib/domain/format";
import type { ServiceStatus } from "@/lib/services/status";

/** The least error budget left among a service's SLOs; a service with SLOs none of which has data says so. */
export function errorBudgetText(s: Pick<ServiceStatus, "lowestErrorBudgetRemaining" | "sloCount">): string {
  if (s.lowestErrorBudgetRemaining !== null) return formatPercent(s.lowestErrorBudgetRemaining, 1);
  if (s.sloCount === 0) return "no SLO";
  return s.sloCount === 1 ? "no data (1 SLO)" : `no data (${s.sloCount} SLOs)`;
}
