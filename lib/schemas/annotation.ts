import { z } from "zod";
import { TIMELINE_RANGES } from "@/lib/domain/timeline";
import { unixTimeSchema } from "./live";
import { slugSchema } from "./service";
import { storable, textSchema } from "./text";

// Annotations: text people and CI type, shown as plain text on every timeline. Nothing in them
// is ever read as HTML or a template; a link is kept only when it is http(s).

/** The kinds a person or a token may post; the app writes the others itself. */
export const POSTED_KINDS = ["note", "deploy"] as const;
export const ANNOTATION_KINDS = [...POSTED_KINDS, "budget", "slo", "experiment", "alert"] as const;
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number];

const tagSchema = storable(
  z
    .string({ error: "A tag is text" })
    .trim()
    .min(1, "A tag cannot be empty")
    .max(60, "A tag is at most 60 characters")
    .regex(/^[\p{L}\p{N}._:/@+=-]+$/u, "A tag is one word: letters, digits and . _ : / @ + = -"),
  "A tag",
);

const urlSchema = storable(
  z
    .string({ error: "The link is a URL" })
    .trim()
    .max(2000, "The link must be at most 2000 characters")
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === "https:" || url.protocol === "http:";
      } catch {
        return false;
      }
    }, "The link must be an http:// or https:// URL"),
  "The link",
);

export const annotationInputSchema = z.object({
  service: slugSchema,
  /** When it happened, in unix seconds; now when left out (e.g. a deploy step posting as it runs). */
  at: z
    .number({ error: "at is a unix timestamp in seconds" })
    .refine((t) => unixTimeSchema.safeParse(t).success, "at is a whole unix second after 2000 and not in the future")
    .optional(),
  text: textSchema("The text", 500).pipe(z.string().min(1, "The text is required")),
  kind: z.enum(POSTED_KINDS, { error: "kind is note or deploy" }).optional(),
  tags: z.array(tagSchema, { error: "tags is a list of words" }).max(10, "At most 10 tags").default([]),
  url: urlSchema.nullable().optional(),
});
export type AnnotationInput = z.output<typeof annotationInputSchema>;

export const annotationQuerySchema = z.object({
  range: z.enum(TIMELINE_RANGES, { error: `Range must be one of ${TIMELINE_RANGES.join(", ")}` }).default("24h"),
  end: unixTimeSchema.optional(),
});
