import type { ReactNode } from "react";
import { Card, EmptyState } from "./primitives";

/** A card holding a full-width table: the header row from `columns`, the body from `children`. */
export function DataTable({
  columns,
  children,
  testId,
  label,
}: {
  columns: ReactNode[];
  children: ReactNode;
  testId?: string;
  /** The table's accessible name. */
  label?: string;
}) {
  return (
    <Card className="overflow-x-auto p-0">
      <table className="w-full text-sm" data-testid={testId} aria-label={label}>
        <thead className="text-left text-slate-500">
          <tr>
            {columns.map((column, i) => (
              <th key={i} className="px-3 py-2">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </Card>
  );
}

export const ROW = "border-t border-slate-100 align-top dark:border-slate-800";
export const CELL = "px-3 py-2";

/** A query's three other states around its data: loading, error, and nothing yet. */
export function QueryStates<T>({
  query,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: Error | null; data: T[] | undefined };
  empty: { title: string; body: ReactNode };
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isPending) return <Card className="h-24 animate-pulse">{null}</Card>;
  if (query.isError || !query.data)
    return (
      <p role="alert" className="text-sm text-red-600">
        {query.error?.message}
      </p>
    );
  if (query.data.length === 0) return <EmptyState title={empty.title}>{empty.body}</EmptyState>;
  return <>{children(query.data)}</>;
}
