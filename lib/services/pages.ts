import "server-only";
import { notFound } from "next/navigation";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { runtime } from "./runtime";

/** For pages: an unknown slug renders the 404 page instead of an error. */
export async function orNotFound<T>(load: (database: Db) => Promise<T>): Promise<T> {
  try {
    return await load(runtime().db);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
