import "server-only";
import { isUniqueViolation } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";

/** Runs a write; a unique-key violation becomes a 409 that names the field which must be unique. */
export async function writeUnique<T>(
  write: () => Promise<T>,
  conflict: { message: string; field: string; taken: string },
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("CONFLICT", conflict.message, { [conflict.field]: conflict.taken });
    throw error;
  }
}
