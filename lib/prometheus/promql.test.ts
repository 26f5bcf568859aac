import { parser } from "@prometheus-io/lezer-promql";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { metricNameSchema } from "@/lib/schemas/budget";
import { PROMQL_KEYWORDS, PROMQL_WORDS } from "@/test/promql-words";
import { parseSelector } from "./parse-selector";
import {
  PromQLBuildError,
  nativeQuery,
  selector,
  stringLiteral,
  taggedBucketQuery,
  windowedBucketQuery,
} from "./promql";

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
    // Runes to Go's unquoting (\x85 would be a byte), never raw: YAML reads U+0085 as a break.
    ["x\u0085y", '"x\\u0085y"'],
    ["c1\u0080\u009f", '"c1\\u0080\\u009f"'],
    ["ls\u2028ps\u2029", '"ls\\u2028ps\\u2029"'],
    ["bom\ufeff", '"bom\\ufeff"'],
    ["nbsp\u00a0é", '"nbsp\u00a0é"'],
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

describe("metric names PromQL reads as something else", () => {
  it.each([
    // Known answers: promtool 2.42 refuses atan2{…} ("unexpected <op:atan2>") and inf{…}, lezer-promql
    // refuses offset{…} and on{…}; rate{…} and sum{…} are metrics to both, and so are names with colons.
    ["atan2", { service: "a" }, '{__name__="atan2",service="a"}'],
    ["inf", {}, '{__name__="inf"}'],
    ["NaN", { a: "b" }, '{__name__="NaN",a="b"}'],
    ["offset", { b: "2", a: "1" }, '{__name__="offset",a="1",b="2"}'],
    ["on", {}, '{__name__="on"}'],
    ["bool", {}, '{__name__="bool"}'],
    ["rate", { a: "b" }, 'rate{a="b"}'],
    ["vllm:e2e_request_latency_seconds", {}, "vllm:e2e_request_latency_seconds{}"],
    ["inf_bucket", {}, "inf_bucket{}"],
  ])("%s %j → %s", (metric, matchers, expected) => expect(selector(metric, matchers)).toBe(expected));

  const casing = (word: string) =>
    fc
      .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
      .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(""));
  const names = fc.oneof(
    fc.constantFrom(...PROMQL_WORDS).chain(casing),
    fc
      .tuple(fc.constantFrom(...PROMQL_WORDS), fc.constantFrom("", ":", "_", "_total", ":rate5m"))
      .map(([word, tail]) => word + tail),
    fc.stringMatching(/^[a-zA-Z_:][a-zA-Z0-9_:]{0,20}$/),
  );
  const matchers = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), fc.string({ maxLength: 12 }), {
    maxKeys: 3,
  });

  it("every legal name is read back by Prometheus's grammar as that metric, in every builder", () => {
    fc.assert(
      fc.property(names, matchers, (metric, labels) => {
        const built = selector(metric, labels);
        expect(parseSelector(built)).toEqual({ ok: true, selector: { metric, matchers: labels } });
        const source = { metric, matchers: labels };
        for (const query of [
          `sum(rate(${built}[5m]))`,
          nativeQuery(source, "rate", "5m"),
          taggedBucketQuery([{ key: "k", source }], { fn: "increase", window: "1h", groupLabel: "lb_key" }),
          windowedBucketQuery(source, ["5m", "1h"], "lb_window"),
        ])
          expect(promqlErrors(query)).toEqual([]);
      }),
    );
  });

  it("writes a keyword or function name bare only when it is not one of Prometheus's own words", () => {
    for (const word of PROMQL_KEYWORDS) expect(selector(word, {})).toBe(`{__name__=${stringLiteral(word)}}`);
  });

  it("refuses names that are not classic metric names, and the schema says so as a field error", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom("http.server.duration", "latência", "a b", "1abc", "", "a-b", "métrique_seconds"),
          // The schema trims what people type, so padding alone does not make a name illegal.
          fc.string({ unit: "grapheme" }).filter((s) => !/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(s.trim())),
        ),
        (metric) => {
          expect(() => selector(metric, {})).toThrow(PromQLBuildError);
          expect(metricNameSchema.safeParse(metric).success).toBe(false);
        },
      ),
    );
  });

  it("refuses inf and nan as grouping labels (numbers in by (…) to Prometheus)", () => {
    expect(() => taggedBucketQuery([], { fn: "rate", window: "5m", groupLabel: "inf" })).toThrow(PromQLBuildError);
    expect(() => windowedBucketQuery({ metric: "x", matchers: {} }, ["5m"], "NaN")).toThrow(PromQLBuildError);
  });
});

function promqlErrors(query: string): number[] {
  const errors: number[] = [];
  parser.parse(query).iterate({
    enter(node) {
      if (node.type.isError) errors.push(node.from);
    },
  });
  return errors;
}
