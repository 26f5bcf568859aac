import { describe, expect, it } from "vitest";
import type { DiscoveredHistogram } from "@/lib/services/discovery";
import { componentLabelOf, moveStage, slugify, stagesByLabel, toPipeline, withProposedBudgets } from "./wizard-model";

const spans: DiscoveredHistogram = {
  metric: "traces_span_metrics_duration_milliseconds",
  kind: "classic",
  unit: "milliseconds",
  unitFrom: "name",
  preset: "otel-spanmetrics",
  role: "span",
  labels: { service_name: ["chat-api", "other"], span_name: ["POST /chat", "rag", "safety", "llm"] },
  series: 8,
  truncated: false,
  help: null,
  unitWarning: null,
  suggestedUnit: null,
};

describe("the new-service wizard's model", () => {
  it("suggests a slug from the name", () => {
    expect(slugify("Chat API (EU) — v2")).toBe("chat-api-eu-v2");
    expect(slugify("Ünïcode ràg")).toBe("unicode-rag");
  });

  it("finds the label that names stages, and makes one source per span with the pins it shares", () => {
    expect(componentLabelOf(spans)).toBe("span_name");
    const stages = stagesByLabel(spans, "span_name", ["rag", "llm"], {
      service_name: "chat-api",
      span_name: "POST /chat",
      model: "x",
    });
    expect(stages.map((s) => s.source)).toEqual([
      { preset: "otel-spanmetrics", metric: spans.metric, matchers: { service_name: "chat-api", span_name: "rag" } },
      { preset: "otel-spanmetrics", metric: spans.metric, matchers: { service_name: "chat-api", span_name: "llm" } },
    ]);
  });

  it("orders stages, joins a parallel one to the stage before, and keeps the first sequential", () => {
    const [rag, safety, llm] = stagesByLabel(spans, "span_name", ["rag", "safety", "llm"], {});
    const picked = [rag!, { ...safety!, parallel: true }, llm!];
    expect(toPipeline(picked).map((s) => [s.name, s.components.map((c) => c.name)])).toEqual([
      ["rag ∥ safety", ["rag", "safety"]],
      ["llm", ["llm"]],
    ]);
    const moved = moveStage(picked, 1, 0);
    expect(moved.map((s) => [s.name, s.parallel])).toEqual([
      ["safety", false],
      ["rag", false],
      ["llm", false],
    ]);
    expect(moveStage(picked, 0, 5)).toBe(picked);
  });

  it("puts the proposal's budgets on the pipeline, component by component", () => {
    const pipeline = toPipeline(stagesByLabel(spans, "span_name", ["rag"], {}));
    const budgets = { p50: 10, p95: 20, p99: 30 };
    const stages = withProposedBudgets(pipeline, {
      stages: [{ name: "rag", components: [{ budgetMs: budgets } as never] }],
    });
    expect(stages[0]!.components[0]!.budgetMs).toEqual(budgets);
  });
});
