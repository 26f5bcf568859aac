import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeStringLiteral } from "./parse-selector";
import { checkRuleGroups } from "./rule-check";
import { checkTemplate, GENERATED_ACTIONS, templateText } from "./template";

/**
 * What Go's text/template prints for text and string constants, with the generator's own actions
 * printing nothing: the only actions checkTemplate lets through.
 */
function render(template: string): string {
  let out = "";
  let rest = template;
  while (rest) {
    const constant = /^\{\{ ("(?:[^"\\\n]|\\.)*") \}\}/.exec(rest);
    const action = [...GENERATED_ACTIONS].find((a) => rest.startsWith(a));
    if (constant) {
      out += decodeStringLiteral(constant[1]!);
      rest = rest.slice(constant[0].length);
    } else if (action) rest = rest.slice(action.length);
    else {
      out += rest[0];
      rest = rest.slice(1);
    }
  }
  return out;
}

const HOSTILE = [
  'Network {{ with query "count(up)" }}{{ . | first | value }}{{ end }}',
  "{{ broken",
  "}} {{",
  'quote " and backslash \\ and {{ "nested" }}',
  "{{/* comment */}}",
  "trailing brace {",
  "{{- trim -}}",
  "tab\tand newline\n{{",
  "emoji 🚀 {{ $value }}",
];

describe("templateText", () => {
  it("leaves text without braces as it is", () => {
    expect(templateText("RAG retrieval")).toBe("RAG retrieval");
    expect(templateText("Safety ∥ RAG — 99.9 % $5")).toBe("Safety ∥ RAG — 99.9 % $5");
  });

  it("turns text with a brace into one Go string constant", () => {
    expect(templateText("{{ broken")).toBe('{{ "{{ broken" }}');
    expect(templateText('a "b" \\ {c}')).toBe('{{ "a \\"b\\" \\\\ {c}" }}');
    expect(templateText("line\n{")).toBe('{{ "line\\n{" }}');
  });

  it.each(HOSTILE)("prints %j exactly and passes the check", (text) => {
    const template = templateText(text);
    expect(checkTemplate(template)).toBeNull();
    expect(render(template)).toBe(text);
  });

  it("round-trips any text, alone or between the generator's own actions", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite" }), fc.string(), (text, other) => {
        const template = `${templateText(text)}: {{ $value | humanizeDuration }} ${templateText(other)}{{ end }}`;
        expect(checkTemplate(template)).toBeNull();
        expect(render(template)).toBe(`${text}:  ${other}`);
      }),
    );
  });
});

describe("checkTemplate", () => {
  it.each(HOSTILE.filter((text) => text.includes("{{") && !text.includes('{{ "')))("refuses %j written raw", (text) => {
    expect(checkTemplate(`${text} is {{ $value | humanizeDuration }}`)).not.toBeNull();
  });

  it("accepts each of the generator's own actions and nothing similar", () => {
    for (const action of GENERATED_ACTIONS) expect(checkTemplate(`x ${action} y`)).toBeNull();
    expect(checkTemplate("{{ $value }}")).toMatchObject({ reason: expect.stringContaining("never writes") });
    expect(checkTemplate("{{$value | humanizeDuration}}")).not.toBeNull();
    expect(checkTemplate('{{ "unterminated }}')).toMatchObject({ reason: expect.stringContaining("unterminated") });
    expect(checkTemplate('{{ "a" | printf "%s" }}')).toMatchObject({ reason: expect.stringContaining("followed") });
    expect(checkTemplate('{{ "\\q" }}')).toMatchObject({ reason: expect.stringContaining("escape") });
  });

  it("a brace of the text next to an action cannot make a new one", () => {
    expect(checkTemplate("name{{{ $value | humanizeDuration }}")).not.toBeNull();
    expect(checkTemplate(`${templateText("name{")}{{ $value | humanizeDuration }}`)).toBeNull();
  });
});

describe("checkRuleGroups", () => {
  const alert = (labels: Record<string, string>, expr = "up > 0") => ({
    name: "g",
    rules: [{ alert: "A", expr, labels, annotations: { summary: "fine" } }],
  });

  it("passes a sound group and names every problem of an unsound one", () => {
    expect(checkRuleGroups([alert({ component: templateText("{{ x") })])).toEqual([]);
    const problems = checkRuleGroups([
      alert({ component: "{{ x" }, "sum(rate(x[5m]"),
      { name: "g", rules: [{ record: "r", expr: "up", labels: { slo: "{{ raw is fine in a recording rule }}" } }] },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/rule 1 \(A\): expr is not valid PromQL/),
      expect.stringMatching(/rule 1 \(A\): label component holds an unterminated action/),
      "group g: the name is used twice",
    ]);
  });
});
