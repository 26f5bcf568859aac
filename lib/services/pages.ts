import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { ANONYMOUS, type Actor } from "./actor";
import { viewerOf, type Viewer } from "./auth/me";
import { actorFromHeaders } from "./auth/request";
import { runtime } from "./runtime";

/** Who is looking at this page (once per request). A broken credential reads as nobody. */
export const pageActor = cache(async (): Promise<Actor> => {
  try {
    return await actorFromHeaders(await headers());
  } catch {
    return ANONYMOUS;
  }
});

export const pageViewer = cache(async (): Promise<Viewer> => viewerOf(await pageActor()));

/**
 * Every page starts here: whoever may not view is sent to sign in (or, before anyone exists, to
 * the first-run setup), and comes back to the page afterwards.
 */
export async function requireViewer(): Promise<Viewer> {
  const viewer = await pageViewer();
  if (viewer.can.read) return viewer;
  if (viewer.needsSetup) redirect("/setup");
  const path = (await headers()).get("x-url") ?? "/";
  redirect(`/sign-in?next=${encodeURIComponent(path)}`);
}

/** For pages: an unknown slug renders the 404 page instead of an error. */
export async function orNotFound<T>(load: (database: Db) => Promise<T>): Promise<T> {
  await requireViewer();
  try {
    return await load(runtime().db);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}

/** For live views: a hand-edited link with a bad parameter opens the default view rather than an error. */
export async function viewOrDefault<T>(
  load: (query: Record<string, unknown>) => Promise<T>,
  query: Record<string, unknown>,
): Promise<T> {
  try {
    return await load(query);
  } catch (error) {
    if (error instanceof AppError && error.code === "VALIDATION_FAILED") return load({});
    throw error;
  }
}
