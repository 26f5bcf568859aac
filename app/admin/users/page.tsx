import type { Metadata } from "next";
import { Allowed } from "@/components/auth/viewer";
import { UsersPanel } from "@/components/account/users-panel";
import { requireViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const viewer = await requireViewer();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Users</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Viewers read everything; editors change budgets, SLOs, experiments and the catalog; admins also manage people,
        tokens and services. A role change takes effect on the person’s next click. Deactivating someone ends their
        sessions and stops their API tokens at once, and refuses their sign-in until you reactivate them.
      </p>
      <Allowed action="user.list">
        <UsersPanel selfId={viewer.user?.id ?? ""} />
      </Allowed>
    </div>
  );
}
