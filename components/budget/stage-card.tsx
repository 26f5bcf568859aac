"use client";

import { useState, Fragment } from "react";
import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { Button, FieldError, Select, TextInput, cx } from "@/components/ui/primitives";
import { PERCENTILES, type StageTime } from "@/lib/domain/budget";
import { formatMs } from "@/lib/domain/format";
import { parseMs, type BudgetForm, type ComponentForm } from "./form-model";
import { SourceEditor } from "./source-editor";

type Props = {
  index: number;
  count: number;
  time: StageTime;
  stageNames: string[];
  onMove: (from: number, to: number) => void;
  onMoveComponent: (component: number, to: number | "new") => void;
  onRemove: () => void;
  newComponent: (name: string) => ComponentForm;
};

export function StageCard({ index, count, time, stageNames, onMove, onMoveComponent, onRemove, newComponent }: Props) {
  const { register, control, formState } = useFormContext<BudgetForm>();
  const components = useFieldArray({ control, name: `stages.${index}.components` });
  const [openSource, setOpenSource] = useState<number | null>(null);
  const errors = formState.errors.stages?.[index];
  const isParallel = components.fields.length > 1;
  const current = useWatch({ control, name: `stages.${index}.components` });

  return (
    <li
      className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
      data-testid={`stage-${index}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="w-6 text-right text-sm tabular-nums text-slate-500">{index + 1}.</span>
        <div className="min-w-48 flex-1">
          <TextInput
            aria-label={`Stage ${index + 1} name`}
            className="font-medium"
            aria-invalid={errors?.name ? true : undefined}
            aria-describedby={`stage-${index}-name-error`}
            {...register(`stages.${index}.name`)}
          />
        </div>
        <span className="text-sm tabular-nums text-slate-600 dark:text-slate-400" data-testid={`stage-${index}-time`}>
          {time.ms === null ? "no budget" : formatMs(time.ms)}
          {isParallel && <span className="ml-1 text-xs">(parallel: slowest counts)</span>}
        </span>
        <Button
          variant="ghost"
          aria-label={`Move stage ${index + 1} up`}
          disabled={index === 0}
          onClick={() => onMove(index, index - 1)}
        >
          ↑
        </Button>
        <Button
          variant="ghost"
          aria-label={`Move stage ${index + 1} down`}
          disabled={index === count - 1}
          onClick={() => onMove(index, index + 1)}
        >
          ↓
        </Button>
        <Button variant="danger" aria-label={`Remove stage ${index + 1}`} onClick={onRemove}>
          Remove
        </Button>
      </div>
      <FieldError id={`stage-${index}-name-error`} message={errors?.name?.message} />
      <FieldError
        id={`stage-${index}-components-error`}
        message={errors?.components?.message ?? errors?.components?.root?.message}
      />

      <table className="mt-2 w-full text-sm">
        <thead>
          <tr className="text-left text-xs text-slate-500">
            <th className="font-normal">{isParallel ? "Parallel components" : "Component"}</th>
            {PERCENTILES.map((p) => (
              <th key={p} className="w-24 font-normal">
                {p} (ms)
              </th>
            ))}
            <th className="w-72" />
          </tr>
        </thead>
        <tbody>
          {components.fields.map((field, c) => {
            const cErrors = errors?.components?.[c];
            const isCritical =
              isParallel && time.criticalComponent !== null && current?.[c]?.name === time.criticalComponent;
            return (
              <Fragment key={field.id}>
                <tr className="align-top" data-testid={`stage-${index}-component-${c}`}>
                  <td className="pr-2">
                    <TextInput
                      aria-label={`Stage ${index + 1} component ${c + 1} name`}
                      aria-invalid={cErrors?.name ? true : undefined}
                      aria-describedby={`s${index}c${c}-name-error`}
                      {...register(`stages.${index}.components.${c}.name`)}
                    />
                    {isCritical && (
                      <span className="mt-1 inline-block rounded bg-amber-100 px-1.5 text-xs text-amber-800 dark:bg-amber-900 dark:text-amber-200">
                        critical path
                      </span>
                    )}
                    <FieldError id={`s${index}c${c}-name-error`} message={cErrors?.name?.message} />
                  </td>
                  {PERCENTILES.map((p) => (
                    <td key={p} className="pr-2">
                      <TextInput
                        aria-label={`Stage ${index + 1} component ${c + 1} ${p} budget in ms`}
                        inputMode="decimal"
                        className="tabular-nums"
                        aria-invalid={cErrors?.budgetMs?.[p] ? true : undefined}
                        aria-describedby={`s${index}c${c}-${p}-error`}
                        {...register(`stages.${index}.components.${c}.budgetMs.${p}`, { setValueAs: parseMs })}
                      />
                      <FieldError id={`s${index}c${c}-${p}-error`} message={cErrors?.budgetMs?.[p]?.message} />
                    </td>
                  ))}
                  <td className="text-right">
                    <div className="flex flex-wrap items-center justify-end gap-1" data-testid="component-controls">
                      <Button
                        variant="ghost"
                        aria-expanded={openSource === c}
                        className={cx(cErrors?.source && "text-red-600")}
                        onClick={() => setOpenSource(openSource === c ? null : c)}
                      >
                        Source
                      </Button>
                      <Button
                        variant="ghost"
                        aria-label={`Move component ${c + 1} of stage ${index + 1} up`}
                        disabled={c === 0}
                        onClick={() => components.move(c, c - 1)}
                      >
                        ↑
                      </Button>
                      <Select
                        aria-label={`Move component ${c + 1} of stage ${index + 1} to`}
                        className="inline-block w-auto max-w-[7.5rem] truncate"
                        value=""
                        onChange={(e) => {
                          if (e.target.value === "") return;
                          onMoveComponent(c, e.target.value === "new" ? "new" : Number(e.target.value));
                        }}
                      >
                        <option value="">Move to…</option>
                        {stageNames.map((name, s) =>
                          s === index ? null : (
                            <option key={s} value={s}>
                              stage {s + 1}: {name} (parallel)
                            </option>
                          ),
                        )}
                        {(isParallel || stageNames.length === 1) && (
                          <option value="new">a stage of its own, next</option>
                        )}
                      </Select>
                      <Button
                        variant="ghost"
                        aria-label={`Remove component ${c + 1} of stage ${index + 1}`}
                        onClick={() => components.remove(c)}
                      >
                        ✕
                      </Button>
                    </div>
                  </td>
                </tr>
                {openSource === c && (
                  <tr>
                    <td colSpan={PERCENTILES.length + 2}>
                      <SourceEditor name={`stages.${index}.components.${c}.source`} id={`s${index}c${c}`} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <Button
        variant="ghost"
        className="mt-1"
        onClick={() => components.append(newComponent(`Component ${components.fields.length + 1}`))}
      >
        + parallel component
      </Button>
    </li>
  );
}
