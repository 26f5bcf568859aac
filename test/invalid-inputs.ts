import fc from "fast-check";

// Arbitraries for inputs that are invalid by construction, for the bad-input property suite.
// Each one breaks exactly one rule of the field it is put in, so every generated request must be
// refused, whatever else it holds.

const text = fc.string({ maxLength: 12 });

/** Text with a NUL somewhere: PostgreSQL cannot store it. */
export const withNul = fc.tuple(text, text).map(([a, b]) => `${a}\u0000${b}`);

/** Text with an unpaired UTF-16 surrogate: it would be stored as U+FFFD. */
export const withLoneSurrogate = fc
  .tuple(text, fc.constantFrom("\uD800", "\uDBFF", "\uDC00", "\uDFFF"), text)
  .map(([a, s, b]) => `${a}${s}${b}`);

/**
 * Text with a character YAML or Go reads as a line break or refuses (U+0085, U+2028, U+2029, other
 * C1 controls, U+FEFF, U+FFFE, U+FFFF) or a C0 control other than the tab and line breaks, inside:
 * stored, it would break the rule file for every service.
 */
export const withLineSeparator = fc
  .tuple(
    text,
    fc.oneof(
      fc.integer({ min: 0x80, max: 0x9f }),
      fc.constantFrom(0x2028, 0x2029, 0xfeff, 0xfffe, 0xffff, 0x01, 0x0b, 0x0c, 0x1b, 0x7f),
    ),
    text,
  )
  .map(([a, c, b]) => `${a}x${String.fromCharCode(c)}x${b}`);

/** Anything that is not a string, for a required text field. */
export const notText = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

/** Anything that is not a number, for a required number field (JSON has no NaN). */
export const notNumber = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 1 }),
);

export const tooLong = (max: number) => fc.nat({ max: 50 }).map((extra) => "x".repeat(max + 1 + extra));

/** A text field that must be storable and at most `max` characters (free text, may be empty). */
export const badText = (max: number) => fc.oneof(withNul, withLoneSurrogate, withLineSeparator, tooLong(max), notText);

/** A name: required, one line, no control characters. */
export const badName = (max: number) =>
  fc.oneof(
    badText(max),
    fc.constantFrom("", "   "),
    // Inside the name: at its edges a tab or a newline is whitespace, trimmed away like a space.
    fc.tuple(text, fc.integer({ min: 1, max: 31 }), text).map(([a, c, b]) => `${a}x${String.fromCharCode(c)}x${b}`),
    // Template delimiters: names reach alert templates.
    fc.tuple(text, fc.constantFrom("{{", "}}"), text).map(([a, d, b]) => `${a}x${d}x${b}`),
  );

/** A number outside [min, max], or not a number. (−0 is left out: JSON writes it as 0.) */
export const outside = (min: number, max: number) =>
  fc.oneof(
    fc
      .double({ max: min, noNaN: true, noDefaultInfinity: true, maxExcluded: true })
      .filter((v) => !Object.is(v, -0) && v < min),
    fc.double({ min: max, noNaN: true, noDefaultInfinity: true, minExcluded: true }).filter((v) => v > max),
    notNumber,
  );

/** Label names Prometheus reserves or the product forbids, as the key of a matchers object. */
export const badLabelName = fc.oneof(
  fc.constantFrom("__proto__", "__name__", "le", "9lives", "a-b", "", "with space"),
  fc.string({ maxLength: 8 }).map((s) => `__${s}`),
);

/** A matchers object that breaks one rule: a bad name (given as raw JSON so __proto__ survives), or a bad value. */
export const badMatchers = fc.oneof(
  badLabelName.map((name) => ({ raw: `{${JSON.stringify(name)}:"x"}` })),
  fc
    .oneof(withNul, withLoneSurrogate, withLineSeparator, fc.constant("two\nlines"), tooLong(200), notText)
    .map((value) => ({ value: { stage: value } })),
  fc.constant({ value: Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`l${i}`, "v"])) }),
  notText.filter((v) => v === null || typeof v !== "object" || Array.isArray(v)).map((value) => ({ value })),
);

/** Body text that is not JSON at all. */
export const notJson = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => {
  try {
    JSON.parse(s);
    return false;
  } catch {
    return true;
  }
});

/** JSON that is not an object. */
export const notAnObject = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 10 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 4 }),
);

/**
 * A query string with one bad `name=value` pair among empty parameters (`a=&bad=…&b=`), what an
 * HTML form sends for the fields left blank. An empty parameter means "no filter": it must neither
 * be refused itself nor hide the bad one.
 */
export const amongEmptyParams = (names: readonly string[], bad: fc.Arbitrary<string>) =>
  fc.tuple(fc.subarray([...names]), bad, fc.nat()).map(([empty, pair, at]) => {
    const pairs = empty.map((name) => `${name}=`);
    pairs.splice(at % (pairs.length + 1), 0, pair);
    return pairs.join("&");
  });

/**
 * Where a sign-in must not send the browser afterwards (the app is at http://localhost): another
 * site, scheme-relative or backslashed hosts, script and data URLs, another port or scheme of this
 * host, and values that are not text.
 */
export const offSiteCallback = fc.oneof(
  fc
    .webUrl({ withQueryParameters: true, withFragments: true })
    .filter((url) => new URL(url).origin !== "http://localhost"),
  fc.domain().map((domain) => `//${domain}/x`),
  fc.domain().map((domain) => `/\\${domain}`),
  fc.constantFrom(
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "http://localhost:4444/",
    "https://localhost/",
    "/\t/evil.example",
    "http:evil.example",
  ),
  fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 })),
);
