import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PasswordForm } from "@/components/account/password-form";
import { requireViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "Your password" };
export const dynamic = "force-dynamic";

export default async function PasswordPage() {
  const viewer = await requireViewer();
  if (!viewer.user || viewer.token) redirect("/sign-in?next=/settings/password");
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Your password</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Changing it signs you out everywhere else. If you sign in through single sign-on, change it with your provider.
      </p>
      <PasswordForm />
    </div>
  );
}
