"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { FormProvider, useFieldArray, useForm, useWatch } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, Card, FieldError, TextInput } from "@/components/ui/primitives";
import { budgetFit, type BudgetDocument } from "@/lib/domain/budget";
import { mergeBudgets } from "@/lib/domain/budget-merge";
import { genericStageSource } from "@/lib/domain/presets";
import { ApiError, apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import type { BudgetView, RevisionView } from "@/lib/services/budgets";
import { ConflictPanel } from "./conflict-panel";
import { FitSummary } from "./fit-summary";
import { ProposalPanel } from "./proposal-panel";
import {
  formPath,
  fromForm,
  moveComponent,
  sourceToForm,
  toForm,
  type BudgetForm,
  type ComponentForm,
} from "./form-model";
import { SourceEditor } from "./source-editor";
import { StageCard } from "./stage-card";
import { TargetFields } from "./target-fields";
import { budgetResolver } from "./use-budget-resolver";
import { Allowed } from "@/components/auth/viewer";

export type Conflict = { message: string; current: BudgetView; revisionsSince: RevisionView[] };

function labelOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "") || "component"
  );
}

export function BudgetEditor({ initial }: { initial: BudgetView }) {
  const router = useRouter();
  const [version, setVersion] = useState(initial.version);
  // The saved state the form was loaded from: the common ancestor when merging after a conflict.
  const [base, setBase] = useState<BudgetDocument>(() => fromForm(toForm(initial)));
  const [clashes, setClashes] = useState<string[]>([]);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const form = useForm<BudgetForm>({ resolver: budgetResolver, defaultValues: toForm(initial), mode: "onChange" });
  const stages = useFieldArray({ control: form.control, name: "stages" });
  const values = useWatch({ control: form.control }) as BudgetForm;
  const doc = useMemo(() => fromForm(values), [values]);
  const fit = useMemo(() => budgetFit(doc), [doc]);
  const targetKey = fit.targetKey ?? "p95";
  const { errors, isDirty } = form.formState;

  const newComponent = (name: string): ComponentForm => ({
    name,
    budgetMs: { p50: null, p95: null, p99: null },
    source: sourceToForm(genericStageSource(initial.slug, labelOf(name))),
  });

  const save = useMutation({
    mutationFn: (input: BudgetForm) =>
      apiFetch<BudgetView>(urls.budget(initial.slug), {
        method: "PUT",
        json: { ...fromForm(input), version, message: input.message || undefined },
      }),
    onSuccess: (saved) => {
      setVersion(saved.version);
      setConflict(null);
      setSavedAt(new Date().toLocaleTimeString());
      setClashes([]);
      setBase(fromForm(toForm(saved)));
      form.reset(toForm(saved));
      router.refresh();
    },
    onError: (error) => {
      if (!(error instanceof ApiError)) return;
      if (error.status === 409) setConflict(error.body as unknown as Conflict);
      if (error.status === 422 && error.body.fields) {
        for (const [path, message] of Object.entries(error.body.fields))
          form.setError(formPath(path) as never, { message });
      }
    },
  });

  const submit = form.handleSubmit((input) => save.mutate(input));

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        void submit();
      }
    };
    const onLeave = (event: BeforeUnloadEvent) => {
      if (form.formState.isDirty) event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("beforeunload", onLeave);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("beforeunload", onLeave);
    };
  }, [submit, form.formState]);

  return (
    <FormProvider {...form}>
      <Form noValidate onSubmit={submit} className="grid gap-4 lg:grid-cols-[1fr_20rem]" aria-label="Budget">
        <div className="space-y-4">
          <Card>
            <TargetFields />
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer text-slate-600 dark:text-slate-400">
                End-to-end histogram (for the measured {targetKey} beside the stacked budgets)
              </summary>
              <SourceEditor name="endToEndSource" id="e2e" label="End-to-end source" />
            </details>
          </Card>

          {stages.fields.length === 0 ? (
            <Card className="text-center text-sm text-slate-600 dark:text-slate-400">
              No stages yet. Add the first stage of the request path, e.g. “Network”, then the ones after it in order.
            </Card>
          ) : (
            <ol className="space-y-3" aria-label="Stages">
              {stages.fields.map((field, i) => (
                <StageCard
                  key={field.id}
                  index={i}
                  count={stages.fields.length}
                  time={fit.byPercentile[targetKey].stageTimes[i] ?? { ms: null, criticalComponent: null }}
                  onMove={(from, to) => stages.move(from, to)}
                  stageNames={values.stages?.map((st) => st?.name ?? "") ?? []}
                  onMoveComponent={(component, to) =>
                    stages.replace(moveComponent(structuredClone(form.getValues("stages")), i, component, to))
                  }
                  onRemove={() => stages.remove(i)}
                  newComponent={newComponent}
                />
              ))}
            </ol>
          )}
          <Button
            onClick={() => {
              const name = `Stage ${stages.fields.length + 1}`;
              stages.append({ name, components: [newComponent(name)] });
            }}
          >
            + Add stage
          </Button>
          <FieldError id="stages-error" message={errors.stages?.message ?? errors.stages?.root?.message} />
        </div>

        <aside className="space-y-4 lg:sticky lg:top-4 lg:self-start">
          <Card>
            <h2 className="mb-2 text-sm font-semibold">Fit against the target</h2>
            <FitSummary doc={doc} fit={fit} />
          </Card>
          <Allowed action="budget.save" quiet>
            <Card>
              <ProposalPanel slug={initial.slug} />
            </Card>
          </Allowed>
          <Card className="space-y-2">
            <Field
              label={
                <>
                  Change note <span className="font-normal text-slate-500">(optional)</span>
                </>
              }
            >
              {(control) => <TextInput {...control} placeholder="Why this change?" {...form.register("message")} />}
            </Field>
            {conflict && (
              <ConflictPanel
                conflict={conflict}
                onKeepMine={() => {
                  const theirs = fromForm(toForm(conflict.current));
                  const { merged, clashes } = mergeBudgets(base, fromForm(form.getValues()), theirs);
                  const message = form.getValues("message");
                  setVersion(conflict.current.version);
                  setBase(theirs);
                  form.reset(toForm(theirs));
                  // Re-applied edits show as unsaved changes on top of their version.
                  form.reset({ ...toForm(merged), message }, { keepDefaultValues: true });
                  setClashes(clashes);
                  setConflict(null);
                }}
                onTakeTheirs={() => {
                  const theirs = fromForm(toForm(conflict.current));
                  setVersion(conflict.current.version);
                  setBase(theirs);
                  form.reset(toForm(theirs));
                  setClashes([]);
                  setConflict(null);
                }}
              />
            )}
            {clashes.length > 0 && (
              <p role="status" className="rounded-md bg-amber-50 p-2 text-xs dark:bg-amber-950">
                Your edits were re-applied on top of version {version}. Both of you changed: {clashes.join(", ")} —
                yours are kept; check them before saving.
              </p>
            )}
            <div aria-live="polite" className="text-sm">
              {save.error && !(save.error instanceof ApiError && [409].includes(save.error.status)) && (
                <p className="text-red-600 dark:text-red-400">{save.error.message}</p>
              )}
              {!isDirty && savedAt && (
                <p className="text-emerald-700 dark:text-emerald-400">
                  Saved version {version} at {savedAt}.
                </p>
              )}
            </div>
            <div className="flex items-center justify-between">
              <span className="text-xs text-slate-500">
                Version {version}
                {isDirty && " · unsaved changes"}
              </span>
              <Allowed action="budget.save">
                <Button
                  type="submit"
                  variant="primary"
                  disabled={save.isPending || !!conflict}
                  aria-keyshortcuts="Control+S"
                >
                  {save.isPending ? "Saving…" : "Save budget"}
                </Button>
              </Allowed>
            </div>
          </Card>
        </aside>
      </Form>
    </FormProvider>
  );
}
