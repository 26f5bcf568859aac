// "What changed" under the timeline: a range's annotations grouped by kind and time, newest
// first, so a busy hour (sixty deploys and notes) reads as a few lines. Pure: annotations in,
// groups out. Each kind's annotations falling in the same aligned slice of time (a tenth of the
// range or so, rounded: 10 minutes for an hour) make one group; a group of one is shown as is.

export type Groupable = { id: string; at: number; kind: string };

export type AnnotationGroup<A extends Groupable> = {
  /** Stable across refreshes while the group keeps its kind and slice. */
  key: string;
  kind: string;
  /** Newest first. */
  items: A[];
  /** The oldest and newest annotation's time. */
  from: number;
  to: number;
};

/** Round slice lengths, in seconds. */
const SLICES = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400];

/** How long a group's slice is for a range of `spanSeconds`: the smallest round one at least an eighth of it (10 min for 1 h, 3 h for 24 h). */
export function sliceFor(spanSeconds: number): number {
  return SLICES.find((s) => s >= spanSeconds / 8) ?? SLICES[SLICES.length - 1]!;
}

/**
 * Groups `annotations` by kind and slice of time (`sliceSeconds`, aligned to the Unix epoch),
 * newest group first (by its newest annotation; ties by kind), each group's items newest first.
 * `kind`, when given, keeps only that kind.
 */
export function groupAnnotations<A extends Groupable>(
  annotations: readonly A[],
  sliceSeconds: number,
  kind?: string,
): AnnotationGroup<A>[] {
  const groups = new Map<string, AnnotationGroup<A>>();
  const sorted = annotations
    .filter((a) => kind === undefined || a.kind === kind)
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  for (const a of sorted) {
    const key = `${a.kind}/${Math.floor(a.at / sliceSeconds)}`;
    const group = groups.get(key);
    if (group) {
      group.items.push(a);
      group.from = a.at;
    } else groups.set(key, { key, kind: a.kind, items: [a], from: a.at, to: a.at });
  }
  return [...groups.values()].sort((a, b) => b.to - a.to || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

/** How many annotations of each kind there are, most first (ties by kind), for the filter. */
export function countKinds(annotations: readonly Groupable[]): { kind: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const a of annotations) counts.set(a.kind, (counts.get(a.kind) ?? 0) + 1);
  return [...counts]
    .map(([k, count]) => ({ kind: k, count }))
    .sort((a, b) => b.count - a.count || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

/** The groups shown after `pages` pages of `pageSize`, and how many are left. */
export function pageOf<T>(items: readonly T[], pages: number, pageSize: number): { shown: T[]; left: number } {
  const shown = items.slice(0, Math.max(1, pages) * pageSize);
  return { shown, left: items.length - shown.length };
}
