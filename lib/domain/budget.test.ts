import { describe, expect, it } from "vitest";
import { chatApi, ragAnswer, ragChatbot, type SeedService } from "@/prisma/seed-data";
import { budgetFit, percentileKeyOf, stageTime, type BudgetDocument, type BudgetStage } from "./budget";
import { formatMs, plural } from "./format";

const doc = ({ service, stages }: SeedService): BudgetDocument => ({
  indicator: service.indicator!,
  targetMs: service.targetMs!,
  quantile: service.quantile!,
  stages,
});

describe("budget fit: seed documents", () => {
  it("chat-api: 660 ms at p95 against 700 ms leaves 40 ms (Diagram 8)", () => {
    const fit = budgetFit(doc(chatApi));
    expect(fit.targetKey).toBe("p95");
    expect(fit.byPercentile.p95.stageTimes.map((t) => t.ms)).toEqual([150, 30, 20, 20, 120, 150, 120, 50]);
    expect(fit.byPercentile.p95).toMatchObject({
      stackedMs: 660,
      marginMs: 40,
      isOverTarget: false,
      stagesWithoutBudget: [],
    });
  });

  it("chat-api: p50 stacks to 450 ms and p99 to 1220 ms, over the target", () => {
    const fit = budgetFit(doc(chatApi));
    expect(fit.byPercentile.p50.stageTimes.map((t) => t.ms)).toEqual([100, 30, 20, 20, 60, 50, 120, 50]);
    expect(fit.byPercentile.p50.stackedMs).toBe(450);
    expect(fit.byPercentile.p99.stageTimes.map((t) => t.ms)).toEqual([210, 40, 30, 30, 150, 500, 180, 80]);
    expect(fit.byPercentile.p99).toMatchObject({ stackedMs: 1220, marginMs: -520, isOverTarget: true });
  });

  it("chat-api: the parallel stages' critical paths are session load and RAG retrieval", () => {
    const fit = budgetFit(doc(chatApi));
    expect(fit.byPercentile.p95.stageTimes[2]).toEqual({ ms: 20, criticalComponent: "Session load" });
    expect(fit.byPercentile.p95.stageTimes[4]).toEqual({ ms: 120, criticalComponent: "RAG retrieval" });
  });

  it.each([
    ["rag-answer", ragAnswer, 4500, 500],
    ["rag-chatbot", ragChatbot, 2850, 150],
  ])("%s stacks to %d ms with %d ms margin", (_name, seed, stacked, margin) => {
    expect(budgetFit(doc(seed)).byPercentile.p95).toMatchObject({
      stackedMs: stacked,
      marginMs: margin,
      isOverTarget: false,
    });
  });
});

describe("stage time", () => {
  const stage = (budgets: (number | null)[]): BudgetStage => ({
    name: "s",
    components: budgets.map((p95, i) => ({ name: `c${i}`, budgetMs: { p50: null, p95, p99: null }, source: null })),
  });

  it.each([
    [[10], 10, "c0"],
    [[10, 30, 20], 30, "c1"],
    [[null, 5], 5, "c1"],
    [[null, null], null, null],
    [[7, 7], 7, "c0"],
  ])("max of %j is %s on %s", (budgets, ms, critical) => {
    expect(stageTime(stage(budgets), "p95")).toEqual({ ms, criticalComponent: critical });
  });

  it("leaves a stage with no budget out of the total and names it", () => {
    const fit = budgetFit({
      indicator: "TTFT",
      targetMs: 100,
      quantile: 0.95,
      stages: [stage([40]), { ...stage([null]), name: "empty" }],
    });
    expect(fit.byPercentile.p95).toMatchObject({ stackedMs: 40, marginMs: 60, stagesWithoutBudget: ["empty"] });
  });

  it("flags exactly-at-target as fitting and one millisecond over as over", () => {
    const at = budgetFit({ indicator: "TTFT", targetMs: 40, quantile: 0.95, stages: [stage([40])] });
    const over = budgetFit({ indicator: "TTFT", targetMs: 39, quantile: 0.95, stages: [stage([40])] });
    expect(at.byPercentile.p95.isOverTarget).toBe(false);
    expect(over.byPercentile.p95.isOverTarget).toBe(true);
  });
});

describe("formatting", () => {
  it.each([
    [0.5, "p50"],
    [0.95, "p95"],
    [0.99, "p99"],
    [0.9, undefined],
  ])("quantile %s is %s", (q, key) => expect(percentileKeyOf(q)).toBe(key));

  it.each([
    [660, "660 ms"],
    [12.25, "12.3 ms"],
    [15_000, "15 s"],
    [12_500, "12.5 s"],
  ])("%d ms reads %s", (ms, text) => expect(formatMs(ms)).toBe(text));

  it.each([
    [0, "0 sessions"],
    [1, "1 session"],
    [2, "2 sessions"],
  ])("%d of a noun reads %s", (n, text) => expect(plural(n, "session")).toBe(text));
});
