import type { LiveCapacity } from "@/lib/services/capacity";

/**
 * M/M/c's predicted wait in words: "no data" when the arrival rate, service time or slots could not
 * be read (there is no queue model), "unbounded (overloaded)" only when the model has one and
 * ρ ≥ 1.
 */
export function predictedWaitText(view: Pick<LiveCapacity, "queue" | "predictedWaitMs">): string {
  if (view.queue === null) return "no data";
  return view.predictedWaitMs === null ? "unbounded (overloaded)" : `${view.predictedWaitMs.toFixed(0)} ms`;
}
