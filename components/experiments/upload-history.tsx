import { formatCount } from "@/lib/domain/format";
import type { UploadView } from "@/lib/services/experiments/experiments";

/** Who added results, when, and how many rows: every upload and import is recorded. */
export function UploadHistory({ uploads }: { uploads: UploadView[] }) {
  if (uploads.length === 0) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-slate-600 dark:text-slate-400">
        {uploads.length} {uploads.length === 1 ? "upload" : "uploads"}, the last by {uploads[0]!.createdBy}
      </summary>
      <ul className="mt-1 list-disc pl-5 text-xs" aria-label="Uploads">
        {uploads.map((u) => (
          <li key={u.createdAt + u.createdBy}>
            {formatCount(u.accepted)} rows from {u.source}
            {u.rejected ? ` (${formatCount(u.rejected)} skipped)` : ""} by {u.createdBy},{" "}
            <time dateTime={u.createdAt}>{new Date(u.createdAt).toLocaleString()}</time>
          </li>
        ))}
      </ul>
    </details>
  );
}
