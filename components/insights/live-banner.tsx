import type { ReactNode } from "react";

/** Why a live view is empty or partial: Prometheus down or unconfigured, or what is missing. */
export function LiveBanner({ error, notes = [] }: { error: string | null; notes?: ReactNode[] }) {
  if (!error && notes.length === 0) return null;
  return (
    <div
      role="status"
      data-testid="live-banner"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      {error && <p>{error}</p>}
      {notes.length > 0 && (
        <ul className="list-disc pl-5">
          {notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
