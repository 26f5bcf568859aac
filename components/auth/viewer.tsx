"use client";

import { createContext, useContext, type ReactNode } from "react";
import { ACTIONS, decide, type Action } from "@/lib/domain/rights";
import type { Viewer } from "@/lib/services/auth/me";

const ViewerContext = createContext<Viewer | null>(null);

/** Who is looking, from the root layout: the UI hides what they may not do (the API refuses it anyway). */
export function ViewerProvider({ viewer, children }: { viewer: Viewer; children: ReactNode }) {
  return <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>;
}

export function useViewer(): Viewer | null {
  return useContext(ViewerContext);
}

export function useCan(action: Action): boolean {
  return useViewer()?.can[action] ?? false;
}

/** Why the viewer may not do it, in a sentence. */
export function whyNot(viewer: Viewer | null, action: Action): string {
  if (!viewer?.user) return `Sign in to ${ACTIONS[action].does}.`;
  const decision = decide({ role: viewer.user.role }, action);
  return decision.allowed ? "" : decision.reason;
}

/**
 * Shows `children` to whoever may do `action`; everyone else gets a short note saying why (or
 * nothing, with `quiet`).
 */
export function Allowed({ action, children, quiet = false }: { action: Action; children: ReactNode; quiet?: boolean }) {
  const viewer = useViewer();
  if (viewer?.can[action]) return <>{children}</>;
  if (quiet) return null;
  return (
    <p className="text-sm text-slate-500 dark:text-slate-400" role="note">
      {whyNot(viewer, action)}{" "}
      {!viewer?.user && (
        <a className="text-sky-600 underline" href={`/sign-in?next=${encodeURIComponent(currentPath())}`}>
          Sign in
        </a>
      )}
    </p>
  );
}

const currentPath = () => (typeof window === "undefined" ? "/" : window.location.pathname + window.location.search);
