import { parser } from "@prometheus-io/lezer-promql";
import type { SyntaxNode } from "@lezer/common";

// Reads the one series selector of a PromQL query with Prometheus's own grammar
// (@prometheus-io/lezer-promql, the parser of Prometheus's UI), never with regular expressions:
// `sum(rate(x_bucket{a="b",le="0.5"}[5m]))` → { metric: "x_bucket", matchers: { a: "b", le: "0.5" } }.
// Anything an SLO cannot be built from (two selectors, regex or negative matchers, arithmetic) is
// refused with a sentence that says why.

export type ParsedSelector = { metric: string; matchers: Record<string, string> };
export type SelectorResult = { ok: true; selector: ParsedSelector } | { ok: false; reason: string };

const ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
};

/** A PromQL string literal's value: Go escapes in "…" and '…', none in `…`. */
export function decodeStringLiteral(literal: string): string | null {
  const quote = literal[0];
  if (literal.length < 2 || literal[literal.length - 1] !== quote) return null;
  const body = literal.slice(1, -1);
  if (quote === "`") return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== "\\") {
      out += char;
      continue;
    }
    const next = body[++i];
    if (next === undefined) return null;
    if (ESCAPES[next] !== undefined) out += ESCAPES[next];
    else if (next === "x" && /^[0-9a-fA-F]{2}$/.test(body.slice(i + 1, i + 3))) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (next === "u" && /^[0-9a-fA-F]{4}$/.test(body.slice(i + 1, i + 5))) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 5), 16));
      i += 4;
    } else if (next === "U" && /^[0-9a-fA-F]{8}$/.test(body.slice(i + 1, i + 9))) {
      const code = parseInt(body.slice(i + 1, i + 9), 16);
      if (code > 0x10ffff) return null;
      out += String.fromCodePoint(code);
      i += 8;
    } else if (/^[0-7]{3}$/.test(body.slice(i, i + 3))) {
      out += String.fromCharCode(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else return null;
  }
  return out;
}

function children(node: SyntaxNode): SyntaxNode[] {
  const list: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) list.push(child);
  return list;
}

export function parseSelector(query: string): SelectorResult {
  if (query.length > 10_000) return { ok: false, reason: "the query is longer than 10,000 characters" };
  const tree = parser.parse(query);
  const selectors: SyntaxNode[] = [];
  let error: number | null = null;
  let binary = false;
  tree.iterate({
    enter(node) {
      if (node.type.isError && error === null) error = node.from;
      if (node.name === "BinaryExpr") binary = true;
      if (node.name === "VectorSelector") selectors.push(node.node);
    },
  });
  if (error !== null) return { ok: false, reason: `it is not valid PromQL (error at character ${error + 1})` };
  if (binary) return { ok: false, reason: "it combines series with arithmetic; give one histogram series selector" };
  if (selectors.length !== 1)
    return { ok: false, reason: `it selects ${selectors.length} series; give exactly one histogram series selector` };
  const selector = selectors[0]!;
  let metric: string | null = null;
  const matchers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const child of children(selector)) {
    if (child.name === "Identifier") metric = query.slice(child.from, child.to);
    if (child.name !== "LabelMatchers") continue;
    for (const matcher of children(child)) {
      if (matcher.name === "QuotedLabelMatcher" || matcher.name === "QuotedLabelName")
        return { ok: false, reason: "quoted label names are not supported" };
      if (matcher.name !== "UnquotedLabelMatcher") continue;
      const parts = children(matcher);
      const name = parts.find((p) => p.name === "LabelName");
      const op = parts.find((p) => p.name === "MatchOp");
      const literal = parts.find((p) => p.name === "StringLiteral");
      if (!name || !op || !literal) return { ok: false, reason: "a label matcher is incomplete" };
      const label = query.slice(name.from, name.to);
      const operator = query.slice(op.from, op.to);
      if (operator !== "=")
        return { ok: false, reason: `the matcher on ${label} uses ${operator}; only = selects one histogram exactly` };
      const value = decodeStringLiteral(query.slice(literal.from, literal.to));
      if (value === null) return { ok: false, reason: `the value of ${label} is not a valid string` };
      if (label in matchers) return { ok: false, reason: `${label} is matched twice` };
      matchers[label] = value;
    }
  }
  if ("__name__" in matchers) {
    if (metric !== null) return { ok: false, reason: "the metric is named twice" };
    metric = matchers.__name__!;
    delete matchers.__name__;
  }
  if (!metric) return { ok: false, reason: "the selector names no metric" };
  return { ok: true, selector: { metric, matchers: { ...matchers } } };
}
