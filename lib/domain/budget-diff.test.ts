import { describe, expect, it } from "vitest";
import type { BudgetDocument } from "./budget";
import { chatApiBudget, edited } from "./budget.fixtures";
import { diffBudgets } from "./budget-diff";

const base = chatApiBudget;
const edit = (change: (doc: BudgetDocument) => void) => edited(change);

describe("diffBudgets", () => {
  it("reports nothing for an identical budget", () => {
    expect(diffBudgets(base, structuredClone(base))).toEqual([]);
  });

  it("describes a creation", () => {
    expect(diffBudgets(null, base)[0]!.summary).toBe("Created with target TTFT 700 ms and 8 stages");
  });

  it("reads a budget change in milliseconds", () => {
    const after = edit((d) => (d.stages[4]!.components[1]!.budgetMs.p95 = 100));
    expect(diffBudgets(base, after).map((c) => c.summary)).toEqual(["RAG retrieval p95: 120 ms → 100 ms"]);
  });

  it("reads a cleared budget as none", () => {
    const after = edit((d) => (d.stages[2]!.components[1]!.budgetMs.p95 = null));
    expect(diffBudgets(base, after).map((c) => c.summary)).toEqual(["Rate-limit check p95: 5 ms → none"]);
  });

  it("describes target, stage and component changes", () => {
    const after = edit((d) => {
      d.targetMs = 650;
      d.stages.splice(3, 1);
      d.stages.push({
        name: "Cache",
        components: [{ name: "Semantic cache", budgetMs: { p50: null, p95: 10, p99: null }, source: null }],
      });
      d.stages[0]!.components[0]!.source = null;
    });
    const summaries = diffBudgets(base, after).map((c) => c.summary);
    expect(summaries).toContain("TTFT q0.95 < 700 ms → TTFT q0.95 < 650 ms");
    expect(summaries).toContain("Added stage “Cache”");
    expect(summaries).toContain("Removed stage “Orchestrator”");
    expect(summaries).toContain("Added component “Semantic cache” to “Cache”");
    expect(summaries).toContain("Removed component “Orchestrator” from “Orchestrator”");
    expect(summaries).toContain(
      'Network source: llm_stage_duration_seconds{service="chat-api",stage="network"} → none',
    );
    expect(summaries.some((s) => s.startsWith("Moved"))).toBe(false);
  });

  it("notices a reorder and a component moved between stages", () => {
    const after = edit((d) => {
      const [network] = d.stages.splice(0, 1);
      d.stages.splice(1, 0, network!);
      const [rateLimit] = d.stages[2]!.components.splice(1, 1);
      d.stages[3]!.components.push(rateLimit!);
    });
    const summaries = diffBudgets(base, after).map((c) => c.summary);
    expect(summaries).toContain("Moved stage “Network” to position 2");
    expect(summaries).toContain("Moved “Rate-limit check” from “Session ∥ rate limit” to “Orchestrator”");
  });
});
