import { decodeStringLiteral } from "./parse-selector";

// Alert labels and annotations are Go templates: Prometheus (and Mimir's or Thanos's ruler)
// evaluates `{{ … }}` in them at every evaluation, with functions that run queries. Text people
// typed (service, stage, component, SLO and indicator names) must reach Prometheus as text.
//
// Text with a brace in it is written as one Go string constant, `{{ "…" }}`, which the template
// engine prints verbatim: nothing inside a quoted constant is an action, and Go's quoting
// (backslash, quote and control characters escaped) is complete. Text without braces cannot
// start an action and stays as it is, so the rule file reads as plainly as before and
// Alertmanager routes on the label values people expect. Keeping names out of templates instead
// would leave alerts without the names on-call reads first.

/** Every template action the generator writes itself; anything else in a rule file is refused. */
export const GENERATED_ACTIONS = new Set([
  "{{ $value | humanizeDuration }}",
  "{{ $value | humanizePercentage }}",
  '{{ with query "time()" }}',
  '{{ . | first | value | printf "%.0f" }}',
  "{{ end }}",
]);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A Go interpreted string literal of `text` (JSON's escapes are a subset of Go's). */
function goString(text: string): string {
  // Go refuses a surrogate code point in \u escapes; names cannot hold one, but never emit it.
  return JSON.stringify(text.replace(LONE_SURROGATE, "\uFFFD"));
}

/** `text` as a template that Prometheus prints exactly as written. */
export function templateText(text: string): string {
  return /[{}]/.test(text) ? `{{ ${goString(text)} }}` : text;
}

/** Template-safe text for each value of a label set. */
export function templateLabels(labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).map(([name, value]) => [name, templateText(value)]));
}

export type TemplateProblem = { at: number; reason: string };

/**
 * Checks that a label or annotation holds only text, string constants and the generator's own
 * actions: the last line of defence before a rule file reaches Prometheus. Returns the first
 * problem, or null.
 */
export function checkTemplate(template: string): TemplateProblem | null {
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{{", i);
    if (open === -1) return null;
    if (template.startsWith('{{ "', open)) {
      const end = quotedEnd(template, open + 3);
      if (end === -1) return { at: open, reason: "an unterminated string constant" };
      if (!template.startsWith(" }}", end)) return { at: open, reason: "a string constant followed by more" };
      if (decodeStringLiteral(template.slice(open + 3, end)) === null)
        return { at: open, reason: "a string constant with an invalid escape" };
      i = end + 3;
      continue;
    }
    const close = template.indexOf("}}", open + 2);
    if (close === -1) return { at: open, reason: "an unterminated action" };
    const action = template.slice(open, close + 2);
    if (!GENERATED_ACTIONS.has(action)) return { at: open, reason: `an action the generator never writes: ${action}` };
    i = close + 2;
  }
  return null;
}

/** The index just past the closing quote of a Go string starting at `start` (a `"`), or -1. */
function quotedEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i];
    if (char === "\\") i++;
    else if (char === '"') return i + 1;
    else if (char === "\n") return -1;
  }
  return -1;
}
