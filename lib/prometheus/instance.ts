import "server-only";
import { env } from "@/lib/env";
import { sharedGuardedTransport } from "./breaker";
import { createPrometheusClient } from "./client";
import { coalesce, type CoalescingClient } from "./coalesce";

const globalForProm = globalThis as unknown as { latencyBudgetsPrometheus?: CoalescingClient | null };

/** The process-wide Prometheus client, or null when PROMETHEUS_URL is not set. */
export function prometheus(): CoalescingClient | null {
  if (globalForProm.latencyBudgetsPrometheus === undefined) {
    const { PROMETHEUS_URL, PROMETHEUS_TIMEOUT_MS, PROMETHEUS_SLOW_AFTER_MS } = env();
    const root = PROMETHEUS_URL?.replace(/\/+$/, "");
    globalForProm.latencyBudgetsPrometheus = root
      ? coalesce(
          createPrometheusClient(root, {
            timeoutMs: PROMETHEUS_TIMEOUT_MS,
            transport: sharedGuardedTransport(root, { slowAfterMs: PROMETHEUS_SLOW_AFTER_MS }),
          }),
        )
      : null;
  }
  return globalForProm.latencyBudgetsPrometheus;
}
