import { Button } from "@/components/ui/primitives";
import type { Conflict } from "./budget-editor";

/** Someone saved in between: show what they changed and let the user choose, never overwrite silently. */
export function ConflictPanel({
  conflict,
  onKeepMine,
  onTakeTheirs,
}: {
  conflict: Conflict;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  return (
    <div
      role="alert"
      className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      <p className="font-medium">Not saved: {conflict.message}</p>
      <ul className="list-disc space-y-1 pl-5" aria-label="Their changes">
        {conflict.revisionsSince.flatMap((revision) =>
          revision.changes.map((change, i) => (
            <li key={`${revision.version}-${i}`}>
              {change.summary}{" "}
              <span className="text-xs text-slate-500">
                (v{revision.version}, {revision.author})
              </span>
            </li>
          )),
        )}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" onClick={onKeepMine}>
          Re-apply my edits on top
        </Button>
        <Button onClick={onTakeTheirs}>Discard mine, load theirs</Button>
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        “Re-apply” loads version {conflict.current.version} and applies your edits to it again; review, then save.
      </p>
    </div>
  );
}
