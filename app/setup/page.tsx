import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/account/setup-form";
import { pageViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "Set up" };
export const dynamic = "force-dynamic";

/** First run only: once anyone exists, this page sends people to sign in. */
export default async function SetupPage() {
  const viewer = await pageViewer();
  if (!viewer.needsSetup) redirect("/sign-in");
  return (
    <div className="mx-auto max-w-sm space-y-4">
      <h1 className="text-2xl font-semibold">Welcome to Latency Budgets</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Nobody has an account yet. Create the first admin with the one-time code the server printed in its log; you can
        add editors and viewers, or turn on single sign-on, afterwards.
      </p>
      <SetupForm />
    </div>
  );
}
