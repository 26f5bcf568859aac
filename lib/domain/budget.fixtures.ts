import { chatApi } from "@/prisma/seed-data";
import type { BudgetDocument } from "./budget";

// The chat-api seed budget as a test fixture, and a way to derive edited copies of it.

export const chatApiBudget: BudgetDocument = {
  indicator: "TTFT",
  targetMs: 700,
  quantile: 0.95,
  stages: structuredClone(chatApi.stages),
};

export function edited(change: (doc: BudgetDocument) => void, from: BudgetDocument = chatApiBudget): BudgetDocument {
  const copy = structuredClone(from);
  change(copy);
  return copy;
}
