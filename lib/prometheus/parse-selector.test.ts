import { describe, expect, it } from "vitest";
import { decodeStringLiteral, parseSelector } from "./parse-selector";

describe("parseSelector (Prometheus's own PromQL grammar)", () => {
  it("finds the one selector inside aggregations and range functions", () => {
    expect(parseSelector('sum by (le) (rate(x_bucket{service="chat", le="0.5"}[5m]))')).toEqual({
      ok: true,
      selector: { metric: "x_bucket", matchers: { service: "chat", le: "0.5" } },
    });
    expect(parseSelector('{__name__="x_count", a="b"}')).toEqual({
      ok: true,
      selector: { metric: "x_count", matchers: { a: "b" } },
    });
  });

  it("decodes every kind of string literal", () => {
    expect(parseSelector("x{a='it\\'s', b=`raw\\n`, c=\"\\u00e9\\x41\\101\"}")).toEqual({
      ok: true,
      selector: { metric: "x", matchers: { a: "it's", b: "raw\\n", c: "éAA" } },
    });
    expect(decodeStringLiteral('"\\q"')).toBeNull();
  });

  it("refuses what cannot name one histogram", () => {
    const reason = (q: string) => {
      const r = parseSelector(q);
      return r.ok ? "accepted" : r.reason;
    };
    expect(reason('x{a=~"b"}')).toBe("the matcher on a uses =~; only = selects one histogram exactly");
    expect(reason("x / y")).toBe("it combines series with arithmetic; give one histogram series selector");
    expect(reason("x{")).toMatch(/^it is not valid PromQL/);
    expect(reason('{a="b"}')).toBe("the selector names no metric");
    expect(reason('x{a="1",a="2"}')).toBe("a is matched twice");
    expect(reason("vector(1)")).toBe("it selects 0 series; give exactly one histogram series selector");
  });

  it("keeps __proto__ as an ordinary label for the schema to refuse, never as a prototype", () => {
    const result = parseSelector('x{__proto__="y"}');
    expect(result.ok && Object.getPrototypeOf(result.selector.matchers)).toBe(Object.prototype);
    expect(result.ok && Object.keys(result.selector.matchers)).toEqual(["__proto__"]);
  });
});
