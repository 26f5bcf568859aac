import { z } from "zod";

// What every stored text must satisfy. PostgreSQL rejects a NUL character in text and JSON (a
// 500 if it got that far), and a lone UTF-16 surrogate would be stored as U+FFFD, silently
// changed; both are refused here with the field named.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL = /[\u0000-\u001f\u007f]/;

export const hasLoneSurrogate = (s: string) => LONE_SURROGATE.test(s);

/** Adds the storable-text checks to a string schema: no NUL, no lone surrogate. */
export function storable<S extends z.ZodType<string>>(schema: S, what: string) {
  return schema
    .refine((s) => !s.includes("\u0000"), `${what} contains a NUL character (\\u0000), which cannot be stored`)
    .refine((s) => !hasLoneSurrogate(s), `${what} is not valid Unicode (it has a lone surrogate)`);
}

/** Free text such as a description or a note: trimmed, at most `max` characters. */
export const textSchema = (what: string, max: number) =>
  storable(
    z
      .string({ error: `${what} must be text` })
      .trim()
      .max(max, `${what} must be at most ${max} characters`),
    what,
  );

/**
 * A name: required, one line, no control characters, and no template delimiters: names travel
 * into alert labels and annotations, which Prometheus and Alertmanager read as Go templates (the
 * rule generator escapes them anyway; this keeps them plain everywhere else they go).
 */
export const nameSchema = (what: string, max = 80) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} must be at most ${max} characters`)
    .refine((s) => !CONTROL.test(s) && !hasLoneSurrogate(s), `${what} contains characters that are not allowed`)
    .refine((s) => !s.includes("{{") && !s.includes("}}"), `${what} cannot contain {{ or }}`);
