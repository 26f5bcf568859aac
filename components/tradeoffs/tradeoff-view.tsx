"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import {
  CartesianGrid,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ComposedChart,
  Tooltip,
  XAxis,
  YAxis,
  LabelList,
} from "recharts";
import { Button, Card, Select, TextInput } from "@/components/ui/primitives";
import { amdahlCeiling, paretoFrontier, plan, type PlanGoal } from "@/lib/domain/optimizations";
import { ApiError, apiFetch } from "@/lib/queries/api";
import type { OptimizationView } from "@/lib/services/optimizations";

const OPTION_FIELDS = [
  { key: "name", label: "Optimization name", placeholder: "Name", width: "w-48" },
  { key: "component", label: "Component", placeholder: "Component", width: "w-40" },
  { key: "savingMs", label: "Saving (ms)", placeholder: "saves ms", width: "w-24" },
  { key: "costPct", label: "Cost change (%)", placeholder: "cost %", width: "w-24" },
] as const;

type ServiceComponents = { slug: string; name: string; componentMs: Record<string, number> };

/** Every option on one picture: latency change against cost change, the Pareto frontier, and a planner. */
export function TradeoffView({ initial, services }: { initial: OptimizationView[]; services: ServiceComponents[] }) {
  const queryClient = useQueryClient();
  const { data: catalog } = useQuery({
    queryKey: ["optimizations"],
    queryFn: () => apiFetch<OptimizationView[]>("/api/optimizations"),
    initialData: initial,
  });
  const points = catalog.map((o) => ({ name: o.name, latencyMs: -o.savingMs, costPct: o.costPct }));
  const frontier = paretoFrontier(points);
  const frontierNames = new Set(frontier.map((p) => p.name));

  const [slug, setSlug] = useState(services[0]?.slug ?? "");
  const [goalKind, setGoalKind] = useState<PlanGoal["kind"]>("max-saving-under-cost");
  const [limit, setLimit] = useState("0");
  const service = services.find((s) => s.slug === slug);
  const total = service ? Object.values(service.componentMs).reduce((a, b) => a + b, 0) : 0;
  const applicable = catalog.filter((o) => service && o.component in service.componentMs);
  const result = useMemo(() => {
    if (!service || limit === "" || !Number.isFinite(Number(limit))) return null;
    const goal: PlanGoal =
      goalKind === "max-saving-under-cost"
        ? { kind: goalKind, maxCostPct: Number(limit) }
        : { kind: goalKind, targetMs: Number(limit) };
    return plan(applicable.slice(0, 20), service.componentMs, goal);
  }, [service, applicable, goalKind, limit]);

  const [form, setForm] = useState({ name: "", component: "", savingMs: "", costPct: "" });
  const [formError, setFormError] = useState<string | null>(null);

  return (
    <div className="space-y-4">
      <Card>
        <h2 className="mb-2 font-semibold">Every option: latency change against cost change</h2>
        <div
          className="h-80 text-slate-900 dark:text-slate-100"
          role="img"
          aria-label="Scatter of latency change against cost change, Pareto frontier highlighted"
        >
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart margin={{ top: 16, right: 24, bottom: 16, left: 8 }}>
              <CartesianGrid strokeOpacity={0.2} />
              <XAxis type="number" dataKey="latencyMs" unit=" ms" name="Δ latency" tick={{ fontSize: 11 }} />
              <YAxis type="number" dataKey="costPct" unit=" %" name="Δ cost" tick={{ fontSize: 11 }} />
              <ReferenceLine y={0} stroke="currentColor" strokeOpacity={0.4} />
              <Tooltip formatter={(v, n) => [`${v}`, n]} />
              <Line
                data={frontier}
                dataKey="costPct"
                stroke="#16a34a"
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
                legendType="none"
              />
              <Scatter data={points} fill="#0ea5e9" isAnimationActive={false}>
                <LabelList dataKey="name" position="top" fontSize={10} fill="currentColor" />
              </Scatter>
            </ComposedChart>
          </ResponsiveContainer>
        </div>
        <p className="text-xs text-slate-500">
          Left is faster, down is cheaper. The green line joins the Pareto frontier: options no other option beats on
          both.
        </p>
      </Card>

      <Card className="overflow-x-auto">
        <table className="w-full text-sm" aria-label="Optimization catalog">
          <thead>
            <tr className="text-left text-xs text-slate-500">
              <th className="font-normal">Optimization</th>
              <th className="font-normal">Component</th>
              <th className="text-right font-normal">Latency</th>
              <th className="text-right font-normal">Cost</th>
              <th className="pl-4 font-normal">Frontier</th>
              <th className="font-normal">Source</th>
            </tr>
          </thead>
          <tbody>
            {catalog.map((o) => (
              <tr
                key={o.id}
                className="border-t border-slate-100 dark:border-slate-800"
                data-testid={`option-${o.name}`}
              >
                <td className="py-1">{o.name}</td>
                <td>{o.component}</td>
                <td className="text-right tabular-nums">−{o.savingMs} ms</td>
                <td className="text-right tabular-nums">
                  {o.costPct > 0 ? "+" : ""}
                  {o.costPct} %
                </td>
                <td className="pl-4">{frontierNames.has(o.name) ? "on the frontier" : ""}</td>
                <td className="text-xs text-slate-500">{o.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <form
          className="mt-3 flex flex-wrap items-end gap-2 text-sm"
          aria-label="Add an optimization"
          onSubmit={async (e) => {
            e.preventDefault();
            setFormError(null);
            try {
              await apiFetch("/api/optimizations", {
                method: "POST",
                json: {
                  name: form.name,
                  component: form.component,
                  savingMs: Number(form.savingMs),
                  costPct: Number(form.costPct),
                },
              });
              setForm({ name: "", component: "", savingMs: "", costPct: "" });
              await queryClient.invalidateQueries({ queryKey: ["optimizations"] });
            } catch (error) {
              setFormError(
                error instanceof ApiError && error.body.fields
                  ? Object.values(error.body.fields).join("; ")
                  : (error as Error).message,
              );
            }
          }}
        >
          {OPTION_FIELDS.map(({ key, label, placeholder, width }) => (
            <TextInput
              key={key}
              aria-label={label}
              placeholder={placeholder}
              className={width}
              value={form[key]}
              onChange={(e) => setForm({ ...form, [key]: e.target.value })}
            />
          ))}
          <Button type="submit">Add</Button>
          <span aria-live="polite" className="text-red-600">
            {formError}
          </span>
        </form>
      </Card>

      <Card className="space-y-3 text-sm">
        <h2 className="font-semibold">Planner</h2>
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1">
            Service (p95 budgets as component times)
            <Select value={slug} onChange={(e) => setSlug(e.target.value)}>
              {services.map((s) => (
                <option key={s.slug} value={s.slug}>
                  {s.name}
                </option>
              ))}
            </Select>
          </label>
          <label className="flex flex-col gap-1">
            Goal
            <Select value={goalKind} onChange={(e) => setGoalKind(e.target.value as PlanGoal["kind"])}>
              <option value="max-saving-under-cost">save the most, cost change at most (%)</option>
              <option value="cheapest-meeting-target">cheapest that brings the total to (ms)</option>
            </Select>
          </label>
          <label className="flex flex-col gap-1">
            {goalKind === "max-saving-under-cost" ? "Cost cap (%)" : "Target (ms)"}
            <TextInput className="w-28" value={limit} onChange={(e) => setLimit(e.target.value)} />
          </label>
        </div>
        <div aria-live="polite" data-testid="plan">
          {!service ? null : result ? (
            <p>
              <strong>{result.names.length ? result.names.join(" + ") : "Change nothing"}</strong>: saves{" "}
              {result.savingMs} ms ({total} → {result.endToEndMs} ms), cost {result.costPct >= 0 ? "+" : ""}
              {result.costPct.toFixed(1)} %.
            </p>
          ) : (
            <p>
              No combination of the {applicable.length} options that act on this service&apos;s components meets that
              goal.
            </p>
          )}
          <p className="text-xs text-slate-500">
            Savings on different components add; savings on one component stop at its time; cost factors multiply.
          </p>
        </div>
        {service && (
          <table className="w-full text-sm" aria-label="Amdahl ceilings">
            <thead>
              <tr className="text-left text-xs text-slate-500">
                <th className="font-normal">Component</th>
                <th className="text-right font-normal">p95 budget</th>
                <th className="text-right font-normal">share</th>
                <th className="text-right font-normal">Amdahl ceiling (component removed entirely)</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(service.componentMs).map(([name, ms]) => (
                <tr key={name} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="py-1">{name}</td>
                  <td className="text-right tabular-nums">{ms} ms</td>
                  <td className="text-right tabular-nums">{((ms / total) * 100).toFixed(0)} %</td>
                  <td className="text-right tabular-nums">{amdahlCeiling(ms, total).toFixed(2)} ×</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}
