"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import {
  CartesianGrid,
  ComposedChart,
  LabelList,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, Card, TextInput } from "@/components/ui/primitives";
import { formatChange, formatMs } from "@/lib/domain/format";
import { paretoFrontier } from "@/lib/domain/optimizations";
import { niceScale } from "@/lib/domain/ticks";
import { ApiError, apiFetch } from "@/lib/queries/api";
import { queries, urls } from "@/lib/queries/resources";
import type { OptimizationView } from "@/lib/services/optimizations";
import type { ServicePipeline } from "@/lib/services/tradeoffs";
import { Planner } from "./planner";
import { Allowed } from "@/components/auth/viewer";

const OPTION_FIELDS = [
  { key: "name", label: "Optimization", placeholder: "e.g. Semantic cache", width: "w-48" },
  { key: "component", label: "Component", placeholder: "e.g. RAG retrieval", width: "w-44" },
  { key: "savingMs", label: "Saving (ms)", placeholder: "e.g. 40", width: "w-28" },
  { key: "costPct", label: "Cost change (%)", placeholder: "e.g. 5", width: "w-28" },
] as const;

/** Every option on one picture: latency change against cost change, the Pareto frontier, and a planner. */
export function TradeoffView({ initial, services }: { initial: OptimizationView[]; services: ServicePipeline[] }) {
  const queryClient = useQueryClient();
  const { data: catalog } = useQuery({ ...queries.optimizations(), initialData: initial });
  const points = useMemo(
    () => catalog.map((o) => ({ name: o.name, latencyMs: -o.savingMs, costPct: o.costPct })),
    [catalog],
  );
  const frontier = useMemo(() => paretoFrontier(points), [points]);
  const frontierNames = new Set(frontier.map((p) => p.name));
  const x = niceScale(
    Math.min(0, ...points.map((p) => p.latencyMs)),
    Math.max(0, ...points.map((p) => p.latencyMs)),
    8,
  );
  const y = niceScale(Math.min(0, ...points.map((p) => p.costPct)), Math.max(0, ...points.map((p) => p.costPct)), 8);

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
            <ComposedChart margin={{ top: 36, right: 48, bottom: 16, left: 16 }}>
              <CartesianGrid strokeOpacity={0.2} />
              <XAxis
                type="number"
                dataKey="latencyMs"
                unit=" ms"
                name="Δ latency"
                tick={{ fontSize: 11 }}
                domain={x.domain}
                ticks={x.ticks}
              />
              <YAxis
                type="number"
                dataKey="costPct"
                unit=" %"
                name="Δ cost"
                tick={{ fontSize: 11 }}
                domain={y.domain}
                ticks={y.ticks}
              />
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
                <td className="text-right tabular-nums">−{formatMs(o.savingMs)}</td>
                <td className="text-right tabular-nums">{formatChange(o.costPct / 100)}</td>
                <td className="pl-4">{frontierNames.has(o.name) ? "on the frontier" : ""}</td>
                <td className="text-xs text-slate-500">
                  {o.source}
                  {o.createdBy && o.createdBy !== o.source ? ` · added by ${o.createdBy}` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Allowed action="optimization.create">
          <Form
            className="mt-3 flex flex-wrap items-end gap-2 text-sm"
            aria-label="Add an optimization"
            onSubmit={async (e) => {
              e.preventDefault();
              setFormError(null);
              try {
                await apiFetch(urls.optimizations(), {
                  method: "POST",
                  json: {
                    name: form.name,
                    component: form.component,
                    savingMs: form.savingMs === "" ? undefined : Number(form.savingMs),
                    costPct: form.costPct === "" ? undefined : Number(form.costPct),
                  },
                });
                setForm({ name: "", component: "", savingMs: "", costPct: "" });
                await queryClient.invalidateQueries({ queryKey: queries.optimizations().queryKey });
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
              <Field key={key} label={label} className={width}>
                {(control) => (
                  <TextInput
                    {...control}
                    placeholder={placeholder}
                    inputMode={key === "savingMs" || key === "costPct" ? "decimal" : undefined}
                    value={form[key]}
                    onChange={(e) => setForm({ ...form, [key]: e.target.value })}
                  />
                )}
              </Field>
            ))}
            <Button type="submit">Add</Button>
            <span aria-live="polite" className="text-red-600">
              {formError}
            </span>
          </Form>
        </Allowed>
      </Card>

      <Planner catalog={catalog} services={services} />
    </div>
  );
}
