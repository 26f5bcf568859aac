import type { z } from "zod";
import { plural } from "@/lib/domain/format";
import { AppError } from "@/lib/errors";

/** Field path as the browser form names it, e.g. "stages.2.components.0.budgetMs.p95". */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".") || "body";
}

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = fieldPath(issue.path);
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Validates caller input; a failure is a 422 with one message per field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = "The request"): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = fieldErrors(result.error);
  const count = Object.keys(fields).length;
  throw new AppError("VALIDATION_FAILED", `${what} has ${plural(count, "invalid field")}.`, fields);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths: anything that is not a UUID cannot name a row, so it is simply not found. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
