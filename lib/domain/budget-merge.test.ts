import { describe, expect, it } from "vitest";
import type { BudgetDocument } from "./budget";
import { chatApiBudget, edited } from "./budget.fixtures";
import { mergeBudgets } from "./budget-merge";

const base = chatApiBudget;
const edit = (change: (doc: BudgetDocument) => void) => edited(change);
const component = (name: string, p95: number) => ({ name, budgetMs: { p50: null, p95, p99: null }, source: null });

describe("mergeBudgets", () => {
  it("keeps both sides' edits to different components", () => {
    const mine = edit((d) => (d.stages[4]!.components[1]!.budgetMs.p95 = 100));
    const theirs = edit((d) => (d.stages[0]!.components[0]!.budgetMs.p95 = 140));
    const { merged, clashes } = mergeBudgets(base, mine, theirs);
    expect(merged.stages[4]!.components[1]!.budgetMs.p95).toBe(100);
    expect(merged.stages[0]!.components[0]!.budgetMs.p95).toBe(140);
    expect(clashes).toEqual([]);
  });

  it("keeps mine and reports a clash when both changed the same value", () => {
    const mine = edit((d) => (d.targetMs = 650));
    const theirs = edit((d) => (d.targetMs = 750));
    expect(mergeBudgets(base, mine, theirs)).toMatchObject({ merged: { targetMs: 650 }, clashes: ["target"] });
  });

  it("is not a clash when both made the same change", () => {
    const both = edit((d) => (d.targetMs = 650));
    expect(mergeBudgets(base, both, structuredClone(both)).clashes).toEqual([]);
  });

  it("re-applies my added stage after its predecessor and my removals, on their structure", () => {
    const mine = edit((d) => {
      d.stages.splice(1, 0, { name: "Cache", components: [component("Semantic cache", 10)] });
      d.stages[3]!.components.splice(1, 1); // rate-limit check removed
    });
    const theirs = edit((d) => d.stages.push({ name: "Audit", components: [component("Audit log", 5)] }));
    const { merged } = mergeBudgets(base, mine, theirs);
    expect(merged.stages.map((s) => s.name)).toEqual([
      "Network",
      "Cache",
      "Gateway + auth",
      "Session ∥ rate limit",
      "Orchestrator",
      "Safety ∥ RAG",
      "Queueing",
      "LLM first token",
      "Response",
      "Audit",
    ]);
    expect(merged.stages[3]!.components.map((c) => c.name)).toEqual(["Session load"]);
  });

  it("adds my parallel component to the stage of the same name", () => {
    const mine = edit((d) => d.stages[4]!.components.push(component("PII scrub", 30)));
    const theirs = edit((d) => (d.stages[4]!.components[0]!.budgetMs.p95 = 55));
    const { merged } = mergeBudgets(base, mine, theirs);
    expect(merged.stages[4]!.components.map((c) => [c.name, c.budgetMs.p95])).toEqual([
      ["Safety check", 55],
      ["RAG retrieval", 120],
      ["PII scrub", 30],
    ]);
  });

  it("drops a stage I removed even if they kept it", () => {
    const mine = edit((d) => d.stages.splice(3, 1));
    const { merged } = mergeBudgets(base, mine, structuredClone(base));
    expect(merged.stages.map((s) => s.name)).not.toContain("Orchestrator");
  });
});
