import { describe, expect, it } from "vitest";
import { chatApi } from "@/prisma/seed-data";
import {
  formPath,
  fromForm,
  moveComponent,
  parseMs,
  sourceFromForm,
  sourceToForm,
  toForm,
  type StageForm,
} from "./form-model";

describe("budget form model", () => {
  it("round-trips a budget through the form unchanged", () => {
    const doc = {
      indicator: "TTFT",
      targetMs: 700,
      quantile: 0.95,
      stages: chatApi.stages,
      endToEndSource: chatApi.service.endToEndSource,
    };
    expect(fromForm(toForm(doc))).toEqual(doc);
    expect(fromForm(toForm({ ...doc, endToEndSource: null })).endToEndSource).toBeNull();
  });

  it("keeps a source's unit and kind through the form, and 'auto' stores none", () => {
    const source = { preset: "otel-spanmetrics", metric: "spans_total_time", matchers: { span_name: "retrieve" } };
    const ms = { ...source, unit: "milliseconds" as const, kind: "native" as const };
    expect(sourceFromForm(sourceToForm(ms))).toEqual(ms);
    expect(sourceFromForm(sourceToForm(source))).toEqual(source);
    expect(sourceToForm(source)).toMatchObject({ unit: "auto", kind: "classic" });
  });

  it("drops blank matcher rows and turns 'none' into no source", () => {
    const form = toForm({
      indicator: "TTFT",
      targetMs: 1,
      quantile: 0.95,
      stages: structuredClone(chatApi.stages.slice(0, 1)),
    });
    form.stages[0]!.components[0]!.source.matchers.push({ name: "", value: "" });
    expect(fromForm(form).stages[0]!.components[0]!.source!.matchers).toEqual({
      service: "chat-api",
      stage: "network",
    });
    form.stages[0]!.components[0]!.source.preset = "none";
    expect(fromForm(form).stages[0]!.components[0]!.source).toBeNull();
  });

  it.each([
    ["", null],
    ["120", 120],
    ["1_000", 1000],
    ["12,5", 12.5],
    ["abc", Number.NaN],
  ])("parses %j as %s", (raw, value) => expect(parseMs(raw)).toEqual(value));

  it("maps a matcher error onto the matcher list", () => {
    expect(formPath("stages.1.components.0.source.matchers.__name__")).toBe("stages.1.components.0.source.matchers");
    expect(formPath("stages.1.components.0.budgetMs.p95")).toBe("stages.1.components.0.budgetMs.p95");
  });
});

describe("moving a component between stages", () => {
  const c = (name: string) => ({ name, budgetMs: { p50: null, p95: 10, p99: null }, source: sourceToForm(null) });
  const stages = () => [
    { name: "Network", components: [c("Network")] },
    { name: "Safety ∥ RAG", components: [c("Safety check"), c("RAG retrieval")] },
    { name: "Queue", components: [c("Queue")] },
  ];
  const names = (s: StageForm[]) => s.map((st) => `${st.name}: ${st.components.map((x) => x.name).join(" ∥ ")}`);

  it("into another stage, as a parallel component", () => {
    expect(names(moveComponent(stages(), 1, 0, 2))).toEqual([
      "Network: Network",
      "Safety ∥ RAG: RAG retrieval",
      "Queue: Queue ∥ Safety check",
    ]);
  });
  it("out into a stage of its own right after", () => {
    expect(names(moveComponent(stages(), 1, 0, "new"))).toEqual([
      "Network: Network",
      "Safety ∥ RAG: RAG retrieval",
      "Safety check: Safety check",
      "Queue: Queue",
    ]);
  });
  it("removes a stage it leaves empty, and never changes the input", () => {
    const before = stages();
    expect(names(moveComponent(before, 0, 0, 2))).toEqual([
      "Safety ∥ RAG: Safety check ∥ RAG retrieval",
      "Queue: Queue ∥ Network",
    ]);
    expect(names(before)).toEqual(names(stages()));
  });
  it("names a new stage apart from existing ones", () => {
    const withDns = [{ name: "Network", components: [c("Network"), c("DNS")] }, ...stages().slice(1)];
    expect(names(moveComponent(withDns, 0, 0, "new")).slice(0, 2)).toEqual(["Network: DNS", "Network 2: Network"]);
    expect(names(moveComponent(stages(), 0, 0, "new"))[0]).toBe("Network: Network");
  });
});
