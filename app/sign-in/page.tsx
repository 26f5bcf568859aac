import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/account/sign-in-form";
import { localPath } from "@/lib/api/security";
import { pageViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

const SSO_ERRORS: Record<string, string> = {
  email_not_verified: "Your provider has not verified your email address.",
  signup_disabled: "Single sign-on may not add new people here; ask an admin.",
};

type Props = { searchParams: Promise<{ next?: string; error?: string }> };

export default async function SignInPage({ searchParams }: Props) {
  const { next, error } = await searchParams;
  const target = localPath(next);
  const viewer = await pageViewer();
  if (viewer.needsSetup) redirect("/setup");
  if (viewer.user) redirect(target);
  return (
    <div className="mx-auto max-w-sm space-y-4">
      <h1 className="text-2xl font-semibold">Sign in</h1>
      {viewer.anonymousView && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Dashboards are open to everyone here; sign in to change budgets, SLOs and experiments.
        </p>
      )}
      <SignInForm
        next={target}
        sso={viewer.sso}
        error={
          error
            ? (SSO_ERRORS[error] ?? `Single sign-on failed (${error.slice(0, 80)}). Try again, or use your password.`)
            : undefined
        }
      />
    </div>
  );
}
