import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { TokensPanel } from "@/components/account/tokens-panel";
import { requireViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "API tokens" };
export const dynamic = "force-dynamic";

export default async function TokensPage() {
  const viewer = await requireViewer();
  if (!viewer.user || viewer.token) redirect("/sign-in?next=/settings/tokens");
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">API tokens</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        A token acts as you, limited to its scopes, until it expires or you revoke it. Send it as{" "}
        <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      <TokensPanel />
    </div>
  );
}
