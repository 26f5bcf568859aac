"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm, type FieldValues, type Path } from "react-hook-form";
import type { z } from "zod";
import { QueueChart } from "@/components/charts/queue-chart";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, Card, TextInput } from "@/components/ui/primitives";
import type { CapacityPlan } from "@/lib/domain/capacity";
import { formatPercent } from "@/lib/domain/format";
import { apiFetch, showFieldErrors } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import { capacityPlanSchema, queueInputSchema } from "@/lib/schemas/insights";
import type { QueueAnswer } from "@/lib/services/capacity";

type PlanInput = z.input<typeof capacityPlanSchema>;
type QueueInput = z.input<typeof queueInputSchema>;

function NumberField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
}: {
  form: ReturnType<typeof useForm<T>>;
  name: Path<T>;
  label: string;
  hint?: string;
}) {
  const error = form.formState.errors[name]?.message;
  return (
    <Field label={label} hint={hint} error={typeof error === "string" ? error : undefined}>
      {(control) => <TextInput {...control} inputMode="decimal" {...form.register(name, { valueAsNumber: true })} />}
    </Field>
  );
}

function Result({ rows, testId }: { rows: [string, string][]; testId: string }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm" data-testid={testId}>
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-500">{label}</dt>
          <dd className="font-medium tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Little's law sizing: L = λW slots, GPUs at a target utilisation. */
export function PlanCalculator() {
  const form = useForm<PlanInput>({
    resolver: zodResolver(capacityPlanSchema),
    defaultValues: { targetRps: 50, avgLatencyS: 2, maxConcurrentPerGpu: 8, targetUtilization: 0.8 },
  });
  const plan = useMutation({
    mutationFn: (input: PlanInput) => apiFetch<CapacityPlan>(urls.capacityPlan(), { method: "POST", json: input }),
    onError: (error) =>
      showFieldErrors(error, (field, message) => form.setError(field as Path<PlanInput>, { message })),
  });
  const r = plan.data;
  return (
    <Card className="space-y-3">
      <h2 className="font-semibold">Plan GPUs (Little’s law)</h2>
      <Form className="grid grid-cols-2 gap-3" noValidate onSubmit={form.handleSubmit((input) => plan.mutate(input))}>
        <NumberField form={form} name="targetRps" label="Target requests per second" />
        <NumberField form={form} name="avgLatencyS" label="Average latency (s)" />
        <NumberField form={form} name="maxConcurrentPerGpu" label="Concurrent slots per GPU" />
        <NumberField form={form} name="targetUtilization" label="Target utilisation" hint="0.8 keeps the queue short" />
        <div className="col-span-2">
          <Button type="submit" disabled={plan.isPending}>
            {plan.isPending ? "Planning…" : "Plan"}
          </Button>
        </div>
      </Form>
      {plan.error && !form.formState.errors.targetRps && (
        <p role="alert" className="text-sm text-red-700">
          {plan.error.message}
        </p>
      )}
      {r && (
        <Result
          testId="plan-result"
          rows={[
            ["Concurrent slots needed (λ × W)", r.requiredConcurrentSlots.toFixed(1)],
            ["GPUs", String(r.gpusNeeded)],
            ["Throughput per GPU", `${r.throughputPerGpuRps.toFixed(2)} req/s`],
            ["Total capacity", `${r.totalCapacityRps.toFixed(1)} req/s`],
            ["Headroom held back", `${r.headroomPercent.toFixed(0)} %`],
            ["With every slot busy", `${r.saturationRps.toFixed(1)} req/s`],
          ]}
        />
      )}
    </Card>
  );
}

/** M/M/c with Erlang C: utilisation, chance of waiting, queue length and wait. */
export function QueueCalculator() {
  const form = useForm<QueueInput>({
    resolver: zodResolver(queueInputSchema),
    defaultValues: { arrivalRps: 1, serviceTimeS: 1, servers: 2 },
  });
  const queue = useMutation({
    mutationFn: (input: QueueInput) => apiFetch<QueueAnswer>(urls.capacityQueue(), { method: "POST", json: input }),
    onError: (error) =>
      showFieldErrors(error, (field, message) => form.setError(field as Path<QueueInput>, { message })),
  });
  const r = queue.data;
  return (
    <Card className="space-y-3">
      <h2 className="font-semibold">Queue (M/M/c, Erlang C)</h2>
      <Form className="grid grid-cols-3 gap-3" noValidate onSubmit={form.handleSubmit((input) => queue.mutate(input))}>
        <NumberField form={form} name="arrivalRps" label="Arrivals per second" />
        <NumberField form={form} name="serviceTimeS" label="Service time (s)" />
        <NumberField form={form} name="servers" label="Servers" />
        <div className="col-span-3">
          <Button type="submit" disabled={queue.isPending}>
            {queue.isPending ? "Working…" : "Compute"}
          </Button>
        </div>
      </Form>
      {queue.error && (
        <p role="alert" className="text-sm text-red-700">
          {queue.error.message}
        </p>
      )}
      {r && (
        <>
          <Result
            testId="queue-result"
            rows={[
              ["Utilisation ρ", formatPercent(r.utilization, 1)],
              ["Probability of waiting", r.stable ? formatPercent(r.probabilityOfWait, 2) : "100 % (overloaded)"],
              [
                "Mean queue length Lq",
                r.meanQueueLength === null ? "grows without bound" : r.meanQueueLength.toFixed(3),
              ],
              ["Mean wait Wq", r.meanWaitS === null ? "grows without bound" : `${(r.meanWaitS * 1000).toFixed(1)} ms`],
              ["Wait p95", r.waitP95S === null ? "grows without bound" : `${(r.waitP95S * 1000).toFixed(1)} ms`],
            ]}
          />
          <QueueChart
            curve={r.curve}
            budgetMs={null}
            quantileLabel="p95"
            point={r.stable && r.waitP95S !== null ? { utilization: r.utilization, waitMs: r.waitP95S * 1000 } : null}
          />
        </>
      )}
    </Card>
  );
}
