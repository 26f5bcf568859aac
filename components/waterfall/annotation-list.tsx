"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Allowed, useCan } from "@/components/auth/viewer";
import { MARKER_COLORS } from "@/components/charts/markers";
import { formatTime } from "@/components/charts/format-time";
import { Field } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { Button, TextInput, cx } from "@/components/ui/primitives";
import { countKinds, groupAnnotations, pageOf, sliceFor, type AnnotationGroup } from "@/lib/domain/annotation-groups";
import { ApiError, apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import type { AnnotationView } from "@/lib/services/annotations";
import type { TimelineView } from "@/lib/services/timeline";

// "What changed" under the timeline: the range's annotations grouped by kind and slice of time
// ("5 deploys 14:50–14:58", open to list them), newest first, ten groups at a time, with a filter
// by kind that lives in the URL (?changes=deploy) so an incident link keeps it.

/** Groups shown at first and added by each "Show more"; annotations of an opened group likewise. */
export const PAGE_SIZE = 10;

const KIND_LABELS: Record<string, [one: string, many: string]> = {
  deploy: ["deploy", "deploys"],
  note: ["note", "notes"],
  budget: ["budget", "budget changes"],
  slo: ["SLO", "SLO changes"],
  experiment: ["experiment", "experiment changes"],
  alert: ["alert", "alerts"],
};

function kindLabel(kind: string, count = 1): string {
  const labels = KIND_LABELS[kind];
  if (!labels) return kind;
  return count === 1 ? labels[0] : labels[1];
}

export function AnnotationList({
  slug,
  view,
  at,
  kind,
  onKind,
  onPin,
  onCompare,
}: {
  slug: string;
  view: TimelineView;
  at?: number;
  /** The kind the list is filtered to (from the URL), if any. */
  kind?: string;
  onKind: (kind: string | undefined) => void;
  onPin: (unix: number) => void;
  onCompare: (unix: number) => void;
}) {
  const queryClient = useQueryClient();
  const canDelete = useCan("annotation.delete");
  const [text, setText] = useState("");
  // Paging restarts when the filter changes: the pages are counted per filter.
  const [pages, setPages] = useState<{ kind?: string; count: number }>({ count: 1 });
  const [open, setOpen] = useState<Record<string, number>>({});
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["timeline", slug] });
  const add = useMutation({
    mutationFn: () =>
      apiFetch<AnnotationView>(urls.annotations(), {
        method: "POST",
        json: { service: slug, text, ...(at !== undefined && { at }) },
      }),
    onSuccess: async () => {
      setText("");
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(urls.annotation(id), { method: "DELETE" }),
    onSuccess: refresh,
  });
  const span = view.end - view.start;
  const kinds = countKinds(view.annotations);
  if (kind !== undefined && !kinds.some((k) => k.kind === kind)) kinds.push({ kind, count: 0 });
  const groups = groupAnnotations(view.annotations, sliceFor(span), kind);
  const { shown, left } = pageOf(groups, pages.kind === kind ? pages.count : 1, PAGE_SIZE);

  function row(a: AnnotationView, inGroup: boolean) {
    return (
      <li key={a.id} className={cx("flex flex-wrap items-baseline gap-x-2", inGroup && "pl-6")}>
        <button
          type="button"
          className="tabular-nums text-slate-500 underline-offset-2 hover:underline dark:text-slate-400"
          onClick={() => onPin(a.at)}
          title="Pin the page to this moment"
        >
          {formatTime(a.at, span)}
        </button>
        <span
          className="rounded px-1.5 text-xs font-medium text-white"
          style={{ backgroundColor: MARKER_COLORS[a.kind] ?? "#64748b" }}
        >
          {kindLabel(a.kind)}
        </span>
        <span className="min-w-0 break-words">{a.text}</span>
        {a.tags.length > 0 && <span className="text-xs text-slate-500">{a.tags.map((t) => `#${t}`).join(" ")}</span>}
        {a.url && (
          <a
            className="text-xs text-sky-700 underline dark:text-sky-400"
            href={a.url}
            target="_blank"
            rel="noopener noreferrer"
          >
            link
          </a>
        )}
        <span className="text-xs text-slate-500">by {a.author}</span>
        <Button className="ml-auto text-xs" onClick={() => onCompare(a.at - view.stepSeconds)}>
          Compare with just before
        </Button>
        {canDelete && (a.kind === "note" || a.kind === "deploy") && (
          <Button
            variant="danger"
            className="text-xs"
            onClick={() => remove.mutate(a.id)}
            aria-label={`Delete the ${a.kind} “${a.text}”`}
          >
            Delete
          </Button>
        )}
      </li>
    );
  }

  function group(g: AnnotationGroup<AnnotationView>) {
    if (g.items.length === 1) return [row(g.items[0]!, false)];
    const openPages = open[g.key] ?? 0;
    const items = openPages > 0 ? pageOf(g.items, openPages, PAGE_SIZE) : null;
    const range = g.from === g.to ? formatTime(g.to, span) : `${formatTime(g.from, span)}–${formatTime(g.to, span)}`;
    return [
      <li key={g.key} className="flex flex-wrap items-baseline gap-x-2" data-testid="annotation-group">
        <button
          type="button"
          aria-expanded={items !== null}
          className="flex items-baseline gap-2 rounded text-left hover:underline"
          onClick={() => setOpen((o) => ({ ...o, [g.key]: items ? 0 : 1 }))}
        >
          <span aria-hidden className="inline-block w-3 text-slate-500">
            {items ? "▾" : "▸"}
          </span>
          <span
            className="rounded px-1.5 text-xs font-medium text-white"
            style={{ backgroundColor: MARKER_COLORS[g.kind] ?? "#64748b" }}
          >
            {g.items.length} {kindLabel(g.kind, g.items.length)}
          </span>
          <span className="tabular-nums text-slate-600 dark:text-slate-300">{range}</span>
        </button>
        {!items && <span className="min-w-0 max-w-md truncate text-xs text-slate-500">latest: {g.items[0]!.text}</span>}
      </li>,
      ...(items?.shown.map((a) => row(a, true)) ?? []),
      ...(items && items.left > 0
        ? [
            <li key={`${g.key}/more`} className="pl-6">
              <Button
                variant="ghost"
                className="text-xs"
                onClick={() => setOpen((o) => ({ ...o, [g.key]: openPages + 1 }))}
              >
                Show {Math.min(PAGE_SIZE, items.left)} more of these ({items.left} left)
              </Button>
            </li>,
          ]
        : []),
    ];
  }

  return (
    <section aria-labelledby="annotations" className="space-y-2 border-t border-slate-100 pt-3 dark:border-slate-800">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="annotations" className="font-semibold">
          What changed
        </h3>
        {view.annotations.length > 0 && (
          <div role="group" aria-label="Filter by kind" className="flex flex-wrap gap-1">
            {[{ kind: undefined as string | undefined, count: view.annotations.length }, ...kinds].map((k) => (
              <Button
                key={k.kind ?? ""}
                variant={k.kind === kind ? "primary" : "secondary"}
                aria-pressed={k.kind === kind}
                className="px-2 py-0.5 text-xs"
                onClick={() => onKind(k.kind)}
              >
                {k.kind === undefined ? "all" : kindLabel(k.kind, 2)} {k.count}
              </Button>
            ))}
          </div>
        )}
      </div>
      {view.annotations.length === 0 ? (
        <p className="text-sm text-slate-500">
          No deploys, notes or changes in the last {view.range}. A deploy step can post one with a token that has the
          write:annotations scope.
        </p>
      ) : groups.length === 0 ? (
        <p className="text-sm text-slate-500" role="status">
          No {kindLabel(kind!, 2)} in the last {view.range}.{" "}
          <button type="button" className="text-sky-700 underline dark:text-sky-400" onClick={() => onKind(undefined)}>
            Show every kind
          </button>
        </p>
      ) : (
        <>
          <ul className="space-y-1 text-sm" aria-label="Annotations">
            {shown.flatMap(group)}
          </ul>
          {left > 0 && (
            <Button
              variant="ghost"
              className="text-xs"
              onClick={() => setPages({ kind, count: (pages.kind === kind ? pages.count : 1) + 1 })}
            >
              Show {Math.min(PAGE_SIZE, left)} more ({left} {left === 1 ? "group" : "groups"} left)
            </Button>
          )}
        </>
      )}
      <Allowed action="annotation.create" quiet>
        <Form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) add.mutate();
          }}
        >
          <Field label={at !== undefined ? `Note at ${new Date(at * 1000).toLocaleTimeString()}` : "Note (now)"}>
            {(control) => (
              <TextInput
                {...control}
                value={text}
                maxLength={500}
                onChange={(e) => setText(e.target.value)}
                placeholder="e.g. Failed over RAG to the replica"
                className="w-80"
              />
            )}
          </Field>
          <Button type="submit" disabled={add.isPending || !text.trim()}>
            {add.isPending ? "Adding…" : "Add note"}
          </Button>
          {add.error && (
            <p className="text-sm text-red-600">
              {add.error instanceof ApiError ? add.error.message : "Could not add the note."}
            </p>
          )}
        </Form>
      </Allowed>
    </section>
  );
}
