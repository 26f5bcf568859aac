import { describe, expect, it } from "vitest";
import { PromQLBuildError, selector, stringLiteral, taggedBucketQuery } from "./promql";

describe("PromQL string literals", () => {
  it.each([
    ["plain", '"plain"'],
    ['a"b', '"a\\"b"'],
    ["back\\slash", '"back\\\\slash"'],
    ["new\nline", '"new\\nline"'],
    ['"} or vector(1) #', '"\\"} or vector(1) #"'],
    [".*|rag", '".*|rag"'],
    ["bell\u0007", '"bell\\x07"'],
    ["emoji 🚀", '"emoji 🚀"'],
  ])("%j → %s", (value, literal) => expect(stringLiteral(value)).toBe(literal));

  it("refuses a lone surrogate", () => expect(() => stringLiteral("\uD800")).toThrow(PromQLBuildError));
});

describe("selectors", () => {
  it("sorts matchers and escapes values", () => {
    expect(selector("llm_stage_duration_seconds_bucket", { stage: 'x"y', service: "chat-api" })).toBe(
      'llm_stage_duration_seconds_bucket{service="chat-api",stage="x\\"y"}',
    );
  });
  it.each([
    ["metric", () => selector("up} or vector(1", {})],
    ["label", () => selector("up", { 'a="b"}': "x" })],
    ["window", () => taggedBucketQuery([], { fn: "rate", window: "5m] or vector(1", groupLabel: "g" })],
  ])("refuses a hostile %s name", (_what, build) => expect(build).toThrow(PromQLBuildError));

  it("builds one query for several histograms, tagged by key", () => {
    const query = taggedBucketQuery(
      [
        { key: "0", source: { metric: "a", matchers: { stage: "x" } } },
        { key: "e2e", source: { metric: "vllm:time_to_first_token_seconds", matchers: {} } },
      ],
      { fn: "rate", window: "5m", groupLabel: "lb_key" },
    );
    expect(query).toBe(
      'sum by (lb_key, le) (label_replace(sum by (le) (rate(a_bucket{stage="x"}[5m])), "lb_key", "0", "", "") or ' +
        'label_replace(sum by (le) (rate(vllm:time_to_first_token_seconds_bucket{}[5m])), "lb_key", "e2e", "", ""))',
    );
  });
});
