import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/account/sign-in-form";
import { localPath } from "@/lib/domain/origins";
import { pageViewer } from "@/lib/services/pages";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

// Only these codes are shown in words; any other ?error= (a link anyone can craft) gets the same
// plain sentence, never its own text.
const SSO_ERRORS: Record<string, string> = {
  email_not_verified: "Your provider has not verified your email address.",
  signup_disabled: "Single sign-on may not add new people here; ask an admin.",
  account_not_linked: "An account with your email exists here already; ask an admin to link it.",
  state_mismatch: "The sign-in took too long or was started elsewhere. Try again.",
  please_restart_the_process: "The sign-in took too long or was started elsewhere. Try again.",
  access_denied: "Your provider did not let you sign in here.",
  account_deactivated: "This account is deactivated. Ask an admin of Latency Budgets to reactivate it.",
};
const SSO_FAILED = "Single sign-on failed. Try again, or use your password.";

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
            ? Object.hasOwn(SSO_ERRORS, error.toLowerCase())
              ? SSO_ERRORS[error.toLowerCase()]
              : SSO_FAILED
            : undefined
        }
      />
    </div>
  );
}
