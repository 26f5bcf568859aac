import { z } from "zod";
import { NOT_ONE_LINE, NOT_PLAIN_TEXT } from "@/lib/domain/plain-text";

// What every stored text must satisfy. PostgreSQL rejects a NUL character in text and JSON (a
// 500 if it got that far), and a lone UTF-16 surrogate would be stored as U+FFFD, silently
// changed; both are refused here with the field named.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasLoneSurrogate = (s: string) => LONE_SURROGATE.test(s);

/** Adds the storable-text checks to a string schema: no NUL, no lone surrogate. */
export function storable<S extends z.ZodType<string>>(schema: S, what: string) {
  return schema
    .refine((s) => !s.includes("\u0000"), `${what} contains a NUL character (\\u0000), which cannot be stored`)
    .refine((s) => !hasLoneSurrogate(s), `${what} is not valid Unicode (it has a lone surrogate)`);
}

/** The first character of `text` that `pattern` matches, as people can look it up: "U+2028". */
function firstOf(text: unknown, pattern: RegExp): string {
  const found = typeof text === "string" ? pattern.exec(text)?.[0] : undefined;
  return found ? `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}` : "a control character";
}

/**
 * Refuses control characters and the line breaks YAML and Go read that JavaScript does not
 * (U+0085, U+2028, U+2029), and U+FEFF, U+FFFE, U+FFFF: text travels into rule files. Multi-line
 * text keeps \n, \r and the tab.
 */
export function plainText<S extends z.ZodType<string>>(schema: S, what: string, { multiLine = false } = {}) {
  const pattern = multiLine ? NOT_PLAIN_TEXT : NOT_ONE_LINE;
  return schema.refine((s) => !pattern.test(s), {
    error: (issue) =>
      `${what} contains ${firstOf(issue.input, pattern)}, a control character or line separator that is not allowed${multiLine ? " (line breaks and tabs are fine)" : ""}`,
  });
}

/** Free text such as a description or a note: trimmed, at most `max` characters, lines and tabs kept. */
export const textSchema = (what: string, max: number) =>
  plainText(
    storable(
      z
        .string({ error: `${what} must be text` })
        .trim()
        .max(max, `${what} must be at most ${max} characters`),
      what,
    ),
    what,
    { multiLine: true },
  );

/**
 * A name: required, one line, no control characters or line separators (NOT_ONE_LINE), and no template delimiters: names travel
 * into alert labels and annotations, which Prometheus and Alertmanager read as Go templates (the
 * rule generator escapes them anyway; this keeps them plain everywhere else they go).
 */
export const nameSchema = (what: string, max = 80) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} must be at most ${max} characters`)
    .refine((s) => !NOT_ONE_LINE.test(s) && !hasLoneSurrogate(s), `${what} contains characters that are not allowed`)
    .refine((s) => !s.includes("{{") && !s.includes("}}"), `${what} cannot contain {{ or }}`);
