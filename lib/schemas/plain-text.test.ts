import { describe, expect, it } from "vitest";
import { metricSourceSchema } from "./budget";
import { nameSchema, textSchema } from "./text";

// Text that travels into rule files: one line for names and label values, and no character YAML
// or Go reads as a line break (U+0085, U+2028, U+2029) or refuses, anywhere.

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0]!.message;

describe("plain text at the boundary", () => {
  it.each([
    "Fast\u2028answers",
    "x\u0085y",
    "a\u0080b",
    "a\u009fb",
    "p\u2029q",
    "bom\ufeffx",
    "x\uffffy",
    "e\u001b[1m",
  ])("a name with %j is refused", (name) =>
    expect(messageOf(nameSchema("Name").safeParse(name))).toBe("Name contains characters that are not allowed"),
  );

  it("free text keeps lines and tabs, and names the character it refuses", () => {
    expect(textSchema("Description", 100).parse("two\nlines\r\nand\ta tab")).toBe("two\nlines\r\nand\ta tab");
    expect(messageOf(textSchema("Description", 100).safeParse("Fast\u2028answers"))).toBe(
      "Description contains U+2028, a control character or line separator that is not allowed (line breaks and tabs are fine)",
    );
    expect(messageOf(textSchema("Description", 100).safeParse("bell\u0007"))).toMatch(/^Description contains U\+0007/);
  });

  it("a label value with a line break or U+0085 is refused; other Unicode is kept", () => {
    const source = (value: string) => ({ preset: "custom", metric: "m", matchers: { stage: value } });
    expect(messageOf(metricSourceSchema.safeParse(source("x\u0085y")))).toBe(
      "Label value contains U+0085, a control character or line separator that is not allowed",
    );
    expect(messageOf(metricSourceSchema.safeParse(source("two\nlines")))).toMatch(/^Label value contains U\+000A/);
    expect(metricSourceSchema.parse(source("é 🚀 ∥ \u00a0")).matchers.stage).toBe("é 🚀 ∥ \u00a0");
  });
});
