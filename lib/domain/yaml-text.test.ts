import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { stringifyYaml } from "./yaml-text";

// Known answers: what Go's yaml.v3 (Prometheus) would read as a line break or refuse is written
// as an escape, inside one double-quoted line; everything else is written as `yaml` writes it.

describe("stringifyYaml", () => {
  it.each([
    ["Fast\u2028answers", 'a: "Fast\\u2028answers"\n'],
    ["para\u2029graph", 'a: "para\\u2029graph"\n'],
    ["x\u0085y", 'a: "x\\u0085y"\n'],
    ["c1\u0080\u009f", 'a: "c1\\u0080\\u009f"\n'],
    ["bom\ufeff", 'a: "bom\\ufeff"\n'],
    ["non\ufffe\uffff", 'a: "non\\ufffe\\uffff"\n'],
    ["esc\u001b[31m", 'a: "esc\\u001b[31m"\n'],
    ["del\u007f", 'a: "del\\u007f"\n'],
    ["cr\r\nlf", 'a: "cr\\u000d\\nlf"\n'],
    ['both\n"\\\u2028\t', 'a: "both\\n\\"\\\\\\u2028\\t"\n'],
    // Unchanged: text YAML carries as is.
    ["plain é 😀", "a: plain é 😀\n"],
    ["two\nlines", "a: |-\n  two\n  lines\n"],
    ["tab\there", "a: tab\there\n"],
  ])("%j", (value, yaml) => expect(stringifyYaml({ a: value }, { lineWidth: 0 })).toBe(yaml));

  it("writes a lone surrogate, which no YAML or Go reader takes, as U+FFFD", () =>
    expect(stringifyYaml({ a: "x\uD800" })).toBe('a: "x\\ufffd"\n'));

  it("writes what `yaml` writes for text that needs no escapes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-ascii" }), (text) => {
        const doc = { groups: [{ name: text, labels: { a: text } }] };
        expect(stringifyYaml(doc, { lineWidth: 0 })).toBe(stringify(doc, { lineWidth: 0 }));
      }),
    );
  });

  it("reads back every string of any code points unchanged, keys and values, with no raw line break but \\n", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.string({ unit: "binary", maxLength: 8 }),
        (text, key) => {
          const doc = { groups: [{ name: text, labels: { [`k${key}`]: text }, list: [text, 1] }] };
          const yaml = stringifyYaml(doc, { lineWidth: 0, sortMapEntries: false });
          expect(parse(yaml)).toEqual(doc);
          expect(yaml).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/);
        },
      ),
      { numRuns: 500 },
    );
  });
});
