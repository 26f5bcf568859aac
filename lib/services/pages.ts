import "server-only";
import { notFound } from "next/navigation";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/** For pages: an unknown slug renders the 404 page instead of an error. */
export async function orNotFound<T>(load: (database: ReturnType<typeof db>) => Promise<T>): Promise<T> {
  try {
    return await load(db());
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
