import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";
import { budgetDocumentSchema } from "@/lib/schemas/budget";
import { fieldPath } from "@/lib/schemas/parse";
import { formPath, fromForm, type BudgetForm } from "./form-model";

function setNested(target: Record<string, unknown>, path: string, message: string) {
  const keys = path.split(".");
  let node = target;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      node[key] ??= { type: "validate", message };
      return;
    }
    node[key] ??= /^\d+$/.test(keys[i + 1]!) ? [] : {};
    node = node[key] as Record<string, unknown>;
  });
}

/** API-style field errors ("stages.0.name") as react-hook-form's nested errors, on the form's paths. */
export function toFieldErrors<T extends FieldValues = BudgetForm>(fields: Record<string, string>): FieldErrors<T> {
  const errors: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(fields)) setNested(errors, formPath(path), message);
  return errors as FieldErrors<T>;
}

/** Validates with the same schema the API uses, so the browser and the server agree. */
export const budgetResolver: Resolver<BudgetForm> = async (values) => {
  const result = budgetDocumentSchema.safeParse(fromForm(values));
  if (result.success) return { values, errors: {} };
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[fieldPath(issue.path)] ??= issue.message;
  return { values: {}, errors: toFieldErrors<BudgetForm>(fields) };
};
