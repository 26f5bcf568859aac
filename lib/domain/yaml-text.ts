import { stringify, type ScalarTag } from "yaml";

// Files the app writes for other programs to read (Prometheus rule files, PrometheusRule, OpenSLO)
// go through one writer: `yaml` leaves U+0085, U+2028, U+2029 and C1 controls raw, which Go's
// yaml.v3 reads as line breaks (a name with U+2028 failed every service's rules) or refuses.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** What a YAML scalar written as is could lose or break on (the tab and \n are safe): escaped instead. */
const NEEDS_ESCAPES = new RegExp(
  `[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\ufeff\\ufffe\\uffff]|${LONE_SURROGATE.source}`,
);
const ESCAPED = new RegExp(NEEDS_ESCAPES.source, "g");

/** A YAML double-quoted scalar on one line: \n and the tab as \n and \t, NEEDS_ESCAPES as \uXXXX. */
function escapedScalar(text: string): string {
  const body = text
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n")
    .replace(/\t/g, "\\t")
    .replace(ESCAPED, (c) => {
      // Go refuses a surrogate code point in \u escapes; a lone one is the replacement character.
      const code = LONE_SURROGATE.test(c) ? 0xfffd : c.charCodeAt(0);
      return `\\u${code.toString(16).padStart(4, "0")}`;
    });
  return `"${body}"`;
}

/** Strings that need escapes are written double-quoted with them; every other string as before. */
const escapedString: ScalarTag = {
  tag: "tag:yaml.org,2002:str",
  default: true,
  identify: (value) => typeof value === "string" && NEEDS_ESCAPES.test(value),
  resolve: (text) => text,
  stringify: (item) => escapedScalar(String(item.value)),
};

/**
 * YAML for files the app writes (rule files, PrometheusRule, OpenSLO): `yaml`'s output, except
 * that a string holding a control character, a line break other than \n, or a character YAML
 * parsers refuse is one double-quoted line of escapes, so a stored value can never break the file
 * or come back changed.
 */
export function stringifyYaml(value: unknown, options: { lineWidth?: number; sortMapEntries?: boolean } = {}): string {
  return stringify(value, { ...options, customTags: (tags) => [escapedString, ...tags] });
}
