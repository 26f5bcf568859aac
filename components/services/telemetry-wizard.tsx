"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type DragEvent } from "react";
import { useDiscovery } from "@/components/budget/use-telemetry";
import { Field } from "@/components/ui/field";
import { useHydrated } from "@/components/ui/form";
import { Badge, Button, Card, EmptyState, Select, TextInput, cx } from "@/components/ui/primitives";
import { percentileKeyOf, type MetricSource } from "@/lib/domain/budget";
import { formatMeasuredMs, formatMs } from "@/lib/domain/format";
import { PRESETS } from "@/lib/domain/presets";
import { ApiError, apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import type { DiscoveredHistogram } from "@/lib/services/discovery";
import type { ProposalView } from "@/lib/services/proposal";
import {
  componentLabelOf,
  moveStage,
  slugify,
  sourceOf,
  stagesByLabel,
  toPipeline,
  withProposedBudgets,
  type DraftStage,
} from "./wizard-model";

// A new service from the telemetry Prometheus already has: name it, pick the end-to-end histogram
// (and the label values it is read with), pick the stages (histograms, or span names of one shared
// histogram; reorder them, run some in parallel), see what each measures, and accept the proposed
// budgets as the service's first revision.

const QUANTILES = [0.5, 0.95, 0.99] as const;

export function TelemetryWizard() {
  const router = useRouter();
  const hydrated = useHydrated();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState<string | null>(null);
  const [targetMs, setTargetMs] = useState("700");
  const [quantile, setQuantile] = useState<number>(0.95);
  const [search, setSearch] = useState("");
  const discovery = useDiscovery(search);
  const [endToEnd, setEndToEnd] = useState<DiscoveredHistogram | null>(null);
  const [pins, setPins] = useState<Record<string, string>>({});
  const [stages, setStages] = useState<DraftStage[]>([]);
  const [dragging, setDragging] = useState<number | null>(null);
  const effectiveSlug = slug ?? slugify(name);
  const pipeline = toPipeline(stages);
  const target = Number(targetMs);

  const propose = useMutation({
    mutationFn: () =>
      apiFetch<ProposalView>(urls.proposals(), {
        method: "POST",
        json: { quantile, targetMs: target, window: "1h", stages: pipeline },
      }),
  });
  const create = useMutation({
    mutationFn: (proposal: ProposalView) =>
      apiFetch<{ slug: string }>(urls.services(), {
        method: "POST",
        json: {
          slug: effectiveSlug,
          name,
          indicator: endToEnd?.role === "e2e" ? "End to end" : "TTFT",
          targetMs: target,
          quantile,
          stages: withProposedBudgets(pipeline, proposal),
          endToEndSource: endToEnd ? sourceOf(endToEnd, pins) : null,
        },
      }),
    onSuccess: (service) => router.push(`/services/${service.slug}/waterfall`),
  });

  const addStages = (added: DraftStage[]) => {
    propose.reset();
    setStages((current) => [...current, ...added.filter((a) => !current.some((c) => c.key === a.key))]);
  };
  const update = (next: DraftStage[]) => {
    propose.reset();
    setStages(next);
  };
  const onDrop = (event: DragEvent, to: number) => {
    event.preventDefault();
    if (dragging !== null) update(moveStage(stages, dragging, to));
    setDragging(null);
  };

  const histograms = discovery.data?.histograms ?? [];
  return (
    <div className="space-y-4">
      <Card>
        <h2 className="mb-3 font-semibold">1. The service</h2>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Name">
            {(control) => (
              <TextInput
                {...control}
                disabled={!hydrated}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="RAG API"
              />
            )}
          </Field>
          <Field label="Slug" hint="Used in links and the API.">
            {(control) => (
              <TextInput
                {...control}
                disabled={!hydrated}
                value={effectiveSlug}
                onChange={(e) => setSlug(e.target.value)}
                placeholder="rag-api"
              />
            )}
          </Field>
          <Field label="Target (ms)">
            {(control) => (
              <TextInput
                {...control}
                disabled={!hydrated}
                inputMode="decimal"
                value={targetMs}
                onChange={(e) => {
                  propose.reset();
                  setTargetMs(e.target.value);
                }}
              />
            )}
          </Field>
          <Field label="Percentile">
            {(control) => (
              <Select
                {...control}
                disabled={!hydrated}
                value={quantile}
                onChange={(e) => {
                  propose.reset();
                  setQuantile(Number(e.target.value));
                }}
              >
                {QUANTILES.map((q) => (
                  <option key={q} value={q}>
                    {percentileKeyOf(q)}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        </div>
      </Card>

      <Card>
        <h2 className="mb-1 font-semibold">2. What your Prometheus has</h2>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
          Pick the end-to-end histogram, then the stages: whole histograms, or the values of a label that names stages
          in one shared histogram (span names from spanmetrics, a <code>stage</code> label).
        </p>
        <Field label="Search histograms">
          {(control) => (
            <TextInput
              {...control}
              disabled={!hydrated}
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="span, ttft, vllm…"
            />
          )}
        </Field>
        <DiscoveryList
          state={discovery}
          histograms={histograms}
          endToEnd={endToEnd}
          onEndToEnd={(h) => {
            propose.reset();
            setEndToEnd(h);
            setPins({});
          }}
          onAddStage={(h) =>
            addStages([
              {
                key: h.metric,
                name: h.metric.replace(/_(seconds|milliseconds|ms)$/, ""),
                source: sourceOf(h, pins),
                parallel: false,
              },
            ])
          }
          onAddByLabel={(h, label, values) => addStages(stagesByLabel(h, label, values, pins))}
        />
        {endToEnd && (
          <div className="mt-3 rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-950">
            <p>
              End to end: <code className="font-mono">{endToEnd.metric}</code> <Badge>{endToEnd.unit}</Badge>{" "}
              <Badge>{endToEnd.kind}</Badge>
            </p>
            <div className="mt-2 grid gap-2 sm:grid-cols-3">
              {Object.entries(endToEnd.labels)
                .filter(([, values]) => values.length > 1)
                .map(([label, values]) => (
                  <Field key={label} label={`Only ${label}`} hint="Applies to the stages that have this label too.">
                    {(control) => (
                      <Select
                        {...control}
                        value={pins[label] ?? ""}
                        onChange={(e) => {
                          propose.reset();
                          setPins({ ...pins, [label]: e.target.value });
                        }}
                      >
                        <option value="">Any</option>
                        {values.map((v) => (
                          <option key={v} value={v}>
                            {v}
                          </option>
                        ))}
                      </Select>
                    )}
                  </Field>
                ))}
            </div>
          </div>
        )}
      </Card>

      <Card>
        <h2 className="mb-1 font-semibold">3. Stages, in order</h2>
        {stages.length === 0 ? (
          <EmptyState title="No stages yet">Add histograms or span names above; then drag them into order.</EmptyState>
        ) : (
          <ol aria-label="Stages" className="space-y-1">
            {stages.map((stage, i) => (
              <li
                key={stage.key}
                draggable
                onDragStart={() => setDragging(i)}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => onDrop(e, i)}
                className={cx(
                  "flex min-w-0 flex-wrap items-center gap-2 rounded-md border border-slate-200 p-2 text-sm sm:flex-nowrap dark:border-slate-800",
                  stage.parallel && "ml-6 border-dashed",
                  dragging === i && "opacity-50",
                )}
              >
                <span aria-hidden className="cursor-grab text-slate-400">
                  ⋮⋮
                </span>
                <div className="w-48 shrink-0">
                  <TextInput
                    aria-label={`Stage ${i + 1} name`}
                    className="w-48 min-w-0"
                    value={stage.name}
                    onChange={(e) => update(stages.map((s, j) => (j === i ? { ...s, name: e.target.value } : s)))}
                  />
                </div>
                <code className="min-w-0 flex-1 truncate text-xs text-slate-500" title={describeSource(stage.source)}>
                  {describeSource(stage.source)}
                </code>
                <span className="flex shrink-0 items-center gap-1">
                  {i > 0 && (
                    <label className="flex items-center gap-1 text-xs">
                      <input
                        type="checkbox"
                        checked={stage.parallel}
                        onChange={(e) =>
                          update(stages.map((s, j) => (j === i ? { ...s, parallel: e.target.checked } : s)))
                        }
                      />
                      parallel with the one above
                    </label>
                  )}
                  <Button
                    variant="ghost"
                    aria-label={`Move ${stage.name} up`}
                    disabled={i === 0}
                    onClick={() => update(moveStage(stages, i, i - 1))}
                  >
                    ↑
                  </Button>
                  <Button
                    variant="ghost"
                    aria-label={`Move ${stage.name} down`}
                    disabled={i === stages.length - 1}
                    onClick={() => update(moveStage(stages, i, i + 1))}
                  >
                    ↓
                  </Button>
                  <Button
                    variant="ghost"
                    aria-label={`Remove ${stage.name}`}
                    onClick={() =>
                      update(
                        moveStage(
                          stages.filter((_, j) => j !== i),
                          0,
                          0,
                        ),
                      )
                    }
                  >
                    ✕
                  </Button>
                </span>
              </li>
            ))}
          </ol>
        )}
        <div className="mt-3 flex items-center gap-2">
          <Button
            variant="primary"
            disabled={!hydrated || stages.length === 0 || !(target > 0) || propose.isPending}
            onClick={() => propose.mutate()}
          >
            {propose.isPending ? "Measuring…" : "Measure and propose budgets"}
          </Button>
          {propose.error && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {errorText(propose.error)}
            </p>
          )}
        </div>
      </Card>

      {propose.data && (
        <ProposalCard
          proposal={propose.data}
          creating={create.isPending}
          createError={create.error}
          canCreate={Boolean(name.trim()) && Boolean(effectiveSlug)}
          onCreate={() => create.mutate(propose.data!)}
        />
      )}
    </div>
  );
}

function describeSource(source: MetricSource): string {
  const matchers = Object.entries(source.matchers)
    .map(([k, v]) => `${k}="${v}"`)
    .join(",");
  return `${source.metric}{${matchers}}`;
}

function errorText(error: Error): string {
  if (error instanceof ApiError && error.body.fields)
    return `${error.message} ${Object.entries(error.body.fields)
      .map(([field, message]) => `${field}: ${message}`)
      .join("; ")}`;
  return error.message;
}

function DiscoveryList({
  state,
  histograms,
  endToEnd,
  onEndToEnd,
  onAddStage,
  onAddByLabel,
}: {
  state: ReturnType<typeof useDiscovery>;
  histograms: DiscoveredHistogram[];
  endToEnd: DiscoveredHistogram | null;
  onEndToEnd: (h: DiscoveredHistogram) => void;
  onAddStage: (h: DiscoveredHistogram) => void;
  onAddByLabel: (h: DiscoveredHistogram, label: string, values: string[]) => void;
}) {
  const [open, setOpen] = useState<string | null>(null);
  if (state.isError)
    return (
      <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
        Discovery did not answer: {state.error.message}
      </p>
    );
  if (state.isPending) return <p className="mt-3 text-sm text-slate-500">Asking Prometheus what it has…</p>;
  if (histograms.length === 0)
    return (
      <div className="mt-3">
        <EmptyState title="No histograms match">
          Try another search, or check that Prometheus scrapes your services (classic or native histograms).
        </EmptyState>
      </div>
    );
  return (
    <div className="mt-3">
      {state.data?.note && <p className="mb-2 text-xs text-amber-700 dark:text-amber-300">{state.data.note}</p>}
      <ul aria-label="Discovered histograms" className="max-h-96 space-y-1 overflow-y-auto">
        {histograms.map((h) => {
          const label = componentLabelOf(h);
          return (
            <li key={h.metric} className="rounded-md border border-slate-200 p-2 text-sm dark:border-slate-800">
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <code className="min-w-0 truncate font-mono">{h.metric}</code>
                <Badge>{h.kind}</Badge>
                <Badge>{h.unit}</Badge>
                {h.preset && <Badge tone="info">{PRESETS[h.preset].label}</Badge>}
                {h.role && <Badge>{h.role}</Badge>}
                <span className="text-xs text-slate-500">{h.series ?? "?"} series</span>
                <span className="ml-auto flex shrink-0 gap-1">
                  <Button
                    variant={endToEnd?.metric === h.metric ? "primary" : "secondary"}
                    aria-label={`Use ${h.metric} as end to end`}
                    onClick={() => onEndToEnd(h)}
                  >
                    End to end
                  </Button>
                  <Button aria-label={`Add ${h.metric} as a stage`} onClick={() => onAddStage(h)}>
                    + Stage
                  </Button>
                  {label && (
                    <Button
                      aria-expanded={open === h.metric}
                      aria-label={`Stages by ${label} of ${h.metric}`}
                      onClick={() => setOpen(open === h.metric ? null : h.metric)}
                    >
                      Stages by {label}…
                    </Button>
                  )}
                </span>
              </div>
              {label && open === h.metric && (
                <LabelPicker
                  label={label}
                  values={h.labels[label] ?? []}
                  onAdd={(values) => {
                    onAddByLabel(h, label, values);
                    setOpen(null);
                  }}
                />
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function LabelPicker({ label, values, onAdd }: { label: string; values: string[]; onAdd: (values: string[]) => void }) {
  const [picked, setPicked] = useState<string[]>([]);
  return (
    <fieldset className="mt-2 flex flex-wrap items-center gap-2">
      <legend className="sr-only">Values of {label} to add as stages</legend>
      {values.map((value) => (
        <label
          key={value}
          className="flex items-center gap-1 rounded border border-slate-200 px-2 py-0.5 text-xs dark:border-slate-700"
        >
          <input
            type="checkbox"
            checked={picked.includes(value)}
            onChange={(e) => setPicked(e.target.checked ? [...picked, value] : picked.filter((p) => p !== value))}
          />
          {value}
        </label>
      ))}
      <Button variant="primary" disabled={picked.length === 0} onClick={() => onAdd(picked)}>
        Add {picked.length || ""} as stages
      </Button>
    </fieldset>
  );
}

function ProposalCard({
  proposal,
  creating,
  createError,
  canCreate,
  onCreate,
}: {
  proposal: ProposalView;
  creating: boolean;
  createError: Error | null;
  canCreate: boolean;
  onCreate: () => void;
}) {
  const key = percentileKeyOf(proposal.quantile) ?? "p95";
  const scale = Math.max(proposal.targetMs, proposal.measuredStackedMs, 1);
  return (
    <Card>
      <h2 className="mb-1 font-semibold">4. Proposed budgets</h2>
      <p className="mb-2 text-sm">
        <Badge tone={proposal.verdict === "fits" ? "good" : proposal.verdict === "undecided" ? "warn" : "bad"}>
          {proposal.verdict === "fits"
            ? "fits"
            : proposal.verdict === "undecided"
              ? "the buckets cannot decide"
              : "does not fit"}
        </Badge>{" "}
        <span data-testid="proposal-note">{proposal.note}</span>
      </p>
      <p className="mb-3 text-xs text-slate-500">{proposal.rule}</p>
      <div aria-label="Measured waterfall" role="img" className="mb-3 space-y-1">
        {proposal.stages.map((stage) => {
          const measured = Math.max(0, ...stage.components.map((c) => c.measuredMs[key] ?? 0));
          const budget = Math.max(0, ...stage.components.map((c) => c.budgetMs[key] ?? 0));
          return (
            <div key={stage.name} className="flex items-center gap-2 text-xs">
              <span className="w-40 shrink-0 truncate">{stage.name}</span>
              <span className="relative h-3 flex-1 rounded bg-slate-100 dark:bg-slate-800">
                <span
                  className="absolute inset-y-0 left-0 rounded bg-sky-500"
                  style={{ width: `${(measured / scale) * 100}%` }}
                />
                <span
                  className="absolute inset-y-[-2px] w-0.5 bg-slate-900 dark:bg-slate-100"
                  style={{ left: `${Math.min(100, (budget / scale) * 100)}%` }}
                />
              </span>
            </div>
          );
        })}
      </div>
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="py-1">Stage / component</th>
            <th>Measured p50 · p95 · p99</th>
            <th>Budget p50 · p95 · p99</th>
          </tr>
        </thead>
        <tbody>
          {proposal.stages.flatMap((stage) =>
            stage.components.map((c) => (
              <tr key={`${stage.name}/${c.name}`} className="border-t border-slate-100 dark:border-slate-800">
                <td className="py-1">{stage.components.length > 1 ? `${stage.name} / ${c.name}` : c.name}</td>
                <td data-testid={`measured-${c.name}`}>
                  {(["p50", "p95", "p99"] as const).map((k) => formatMeasuredMs(c.measuredMs[k], false)).join(" · ")}
                  {c.isLowerBound && " (≥ in +Inf)"}
                </td>
                <td data-testid={`budget-${c.name}`}>
                  {(["p50", "p95", "p99"] as const)
                    .map((k) => (c.budgetMs[k] === null ? "—" : formatMs(c.budgetMs[k]!)))
                    .join(" · ")}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      <p className="mt-2 text-sm">
        Stacked {key} budget {formatMs(Math.round(proposal.stackedMs * 10) / 10)} of {formatMs(proposal.targetMs)}
        {proposal.predictedEndToEndMs !== null &&
          `; predicted end to end at budget ${formatMs(Math.round(proposal.predictedEndToEndMs * 10) / 10)}`}
        .
      </p>
      <div className="mt-3 flex items-center gap-2">
        <Button variant="primary" disabled={!canCreate || creating} onClick={onCreate}>
          {creating ? "Creating…" : "Create the service with these budgets"}
        </Button>
        {!canCreate && <span className="text-sm text-slate-500">Name the service first.</span>}
        {createError && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {errorText(createError)}
          </p>
        )}
      </div>
    </Card>
  );
}
