import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayUrl } from "./display-url";

describe("displayUrl", () => {
  it.each([
    ["http://reader:s3cretpw@127.0.0.1:1", "http://127.0.0.1:1"],
    ["http://reader:s3cretpw@127.0.0.1:1/", "http://127.0.0.1:1"],
    ["https://only-user@prom.example/prometheus/", "https://prom.example/prometheus"],
    ["https://:pw@prom.example", "https://prom.example"],
    ["http://prom.example:9090/api/prom?token=abc#frag", "http://prom.example:9090/api/prom"],
    ["http://u%40corp:p%3Aw@[::1]:9090", "http://[::1]:9090"],
    ["http://localhost:9090", "http://localhost:9090"],
    ["not a url", "(a URL that cannot be read)"],
  ])("%s → %s", (url, shown) => expect(displayUrl(url)).toBe(shown));

  it("never shows the user, the password or the query of any URL", () => {
    const secret = fc.stringMatching(/^[a-zA-Z0-9]{6,12}$/);
    fc.assert(
      fc.property(fc.webUrl(), secret, secret, secret, (url, user, password, token) => {
        const parsed = new URL(url);
        parsed.username = `U${user}`;
        parsed.password = `P${password}`;
        parsed.search = `?token=T${token}`;
        const shown = displayUrl(parsed.href);
        for (const hidden of [`U${user}`, `P${password}`, `T${token}`]) expect(shown).not.toContain(hidden);
        expect(shown).toContain(parsed.host);
      }),
    );
  });
});
