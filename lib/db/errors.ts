import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";

/** A unique constraint refused the row (a taken slug or name). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
