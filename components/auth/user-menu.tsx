"use client";

import Link from "next/link";
import { useState } from "react";
import { useViewer } from "./viewer";

/** The header's corner: who is signed in, with what role, and where their settings are. */
export function UserMenu() {
  const viewer = useViewer();
  const [isSigningOut, setSigningOut] = useState(false);
  if (!viewer?.user) {
    if (viewer?.needsSetup) return null;
    return (
      <Link
        href="/sign-in"
        className="rounded-md border border-slate-300 px-2.5 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Sign in
      </Link>
    );
  }
  async function signOut() {
    setSigningOut(true);
    await fetch("/api/auth/sign-out", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    window.location.assign("/");
  }
  const isAdmin = viewer.user.role === "admin";
  return (
    <details className="relative">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-md px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800">
        <span className="max-w-48 truncate" data-testid="signed-in-as">
          {viewer.user.email}
        </span>
        <span className="rounded bg-slate-200 px-1.5 text-xs uppercase tracking-wide dark:bg-slate-700">
          {viewer.user.role}
        </span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 flex w-48 flex-col rounded-md border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <Link className="px-3 py-1.5 hover:bg-slate-100 dark:hover:bg-slate-800" href="/settings/tokens">
          API tokens
        </Link>
        <Link className="px-3 py-1.5 hover:bg-slate-100 dark:hover:bg-slate-800" href="/settings/password">
          Change password
        </Link>
        {isAdmin && (
          <>
            <Link className="px-3 py-1.5 hover:bg-slate-100 dark:hover:bg-slate-800" href="/admin/users">
              Users
            </Link>
            <Link className="px-3 py-1.5 hover:bg-slate-100 dark:hover:bg-slate-800" href="/admin/audit">
              Audit trail
            </Link>
          </>
        )}
        <button
          type="button"
          className="px-3 py-1.5 text-left hover:bg-slate-100 disabled:opacity-50 dark:hover:bg-slate-800"
          onClick={signOut}
          disabled={isSigningOut}
        >
          {isSigningOut ? "Signing out…" : "Sign out"}
        </button>
      </div>
    </details>
  );
}
