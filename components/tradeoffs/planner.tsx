"use client";

import { useMemo, useState } from "react";
import { Field } from "@/components/ui/field";
import { Card, Select, TextInput } from "@/components/ui/primitives";
import { ServiceOptions } from "@/components/ui/service-options";
import { formatChange, formatMs, formatPercent } from "@/lib/domain/format";
import { amdahlCeiling, plan, PLANNER_LIMIT, type PlanGoal } from "@/lib/domain/optimizations";
import type { OptimizationView } from "@/lib/services/optimizations";
import type { ServicePipeline } from "@/lib/services/tradeoffs";

/**
 * The best combination of options for a service, on the budget's real stage structure. The
 * search is exhaustive and runs only when the catalog, the service or the goal changes.
 */
export function Planner({ catalog, services }: { catalog: OptimizationView[]; services: ServicePipeline[] }) {
  const [slug, setSlug] = useState(services[0]?.slug ?? "");
  const [goalKind, setGoalKind] = useState<PlanGoal["kind"]>("max-saving-under-cost");
  const [limit, setLimit] = useState("0");
  const service = services.find((s) => s.slug === slug);
  const limitValue = limit.trim() === "" ? Number.NaN : Number(limit);
  const result = useMemo(() => {
    if (!service || !Number.isFinite(limitValue)) return null;
    const goal: PlanGoal =
      goalKind === "max-saving-under-cost"
        ? { kind: goalKind, maxCostPct: limitValue }
        : { kind: goalKind, targetMs: limitValue };
    return plan(catalog, service.pipeline, goal);
  }, [catalog, service, goalKind, limitValue]);
  const stageTimes = service?.pipeline.map((stage) => Math.max(0, ...stage.components.map((c) => c.ms))) ?? [];
  const total = stageTimes.reduce((a, b) => a + b, 0);

  return (
    <Card className="space-y-3 text-sm">
      <h2 className="font-semibold">Planner</h2>
      <div className="flex flex-wrap items-end gap-2">
        <Field label={`Service (${service?.percentile ?? "p95"} budgets as component times)`}>
          {(control) => (
            <Select {...control} value={slug} onChange={(e) => setSlug(e.target.value)}>
              <ServiceOptions services={services} />
            </Select>
          )}
        </Field>
        <Field label="Goal">
          {(control) => (
            <Select {...control} value={goalKind} onChange={(e) => setGoalKind(e.target.value as PlanGoal["kind"])}>
              <option value="max-saving-under-cost">save the most, cost change at most (%)</option>
              <option value="cheapest-meeting-target">cheapest that brings the total to (ms)</option>
            </Select>
          )}
        </Field>
        <Field
          label={goalKind === "max-saving-under-cost" ? "Cost cap (%)" : "Target (ms)"}
          error={Number.isFinite(limitValue) ? undefined : "Enter a number"}
        >
          {(control) => (
            <TextInput
              {...control}
              className="w-28"
              inputMode="decimal"
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
            />
          )}
        </Field>
      </div>
      <div aria-live="polite" data-testid="plan" className="space-y-1">
        {!service || !result ? null : result.best ? (
          <p>
            <strong>{result.best.names.length ? result.best.names.join(" + ") : "Change nothing"}</strong>: saves{" "}
            {formatMs(result.best.savingMs)} ({formatMs(total)} → {formatMs(result.best.endToEndMs)}), cost{" "}
            {formatChange(result.best.costPct / 100)}.
          </p>
        ) : (
          <p>
            No combination of the {result.considered.length} options that act on this service&apos;s components meets
            that goal.
          </p>
        )}
        {result && result.leftOut.length > 0 && (
          <p className="text-amber-700 dark:text-amber-400" data-testid="plan-left-out">
            The search tries every combination of {PLANNER_LIMIT} options; {result.leftOut.length} more were left out:{" "}
            {result.leftOut.map((o) => o.name).join(", ")}.
          </p>
        )}
        {result && result.notApplicable.length > 0 && (
          <details className="text-xs text-slate-500">
            <summary>{result.notApplicable.length} options do not act on this service</summary>
            <ul className="list-disc pl-5">
              {result.notApplicable.map((o) => (
                <li key={o.name}>
                  {o.name}: {o.reason}
                </li>
              ))}
            </ul>
          </details>
        )}
        <p className="text-xs text-slate-500">
          A parallel stage lasts as long as its slowest component, so speeding up one of two parallel components saves
          only down to the other. Savings on one component stop at its time; cost factors multiply.
        </p>
      </div>
      {service && total > 0 && (
        <table className="w-full text-sm" aria-label="Amdahl ceilings">
          <thead>
            <tr className="text-left text-xs text-slate-500">
              <th className="font-normal">Stage</th>
              <th className="text-right font-normal">{service.percentile} budget</th>
              <th className="text-right font-normal">share</th>
              <th className="text-right font-normal">Amdahl ceiling (stage removed entirely)</th>
            </tr>
          </thead>
          <tbody>
            {service.pipeline.map((stage, i) => (
              <tr key={stage.name} className="border-t border-slate-100 dark:border-slate-800">
                <td className="py-1">{stage.name}</td>
                <td className="text-right tabular-nums">{formatMs(stageTimes[i]!)}</td>
                <td className="text-right tabular-nums">{formatPercent(stageTimes[i]! / total, 0)}</td>
                <td className="text-right tabular-nums">{amdahlCeiling(stageTimes[i]!, total).toFixed(2)} ×</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
