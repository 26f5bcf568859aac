import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditLog } from "@/components/account/audit-log";
import { Allowed } from "@/components/auth/viewer";
import { requireViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "Audit trail" };
export const dynamic = "force-dynamic";

export default async function AuditPage() {
  await requireViewer();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Audit trail</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Every change, sign-in and failed sign-in, newest first. Entries are never changed or deleted.
      </p>
      <Allowed action="audit.read">
        <Suspense>
          <AuditLog />
        </Suspense>
      </Allowed>
    </div>
  );
}
