import { describe, expect, it } from "vitest";
import { chatApi } from "@/prisma/seed-data";
import { formPath, fromForm, parseMs, toForm } from "./form-model";

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
