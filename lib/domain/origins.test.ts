import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAddressHost, isOwnCallback, localPath, trustedOriginsOf, untrustedOriginMessage } from "./origins";

const own = "https://budgets.example.com";
const headers = (h: Record<string, string>) => new Headers(h);

describe("trustedOriginsOf", () => {
  it("with a public URL: it and the extra trusted origins, whatever the request was addressed to", () => {
    const config = { publicUrl: "https://budgets.example.com/app", extraOrigins: ["http://10.0.0.5:3000"] };
    expect(trustedOriginsOf(config, "http://10.0.0.5:3000/api", headers({ host: "10.0.0.5:3000" }))).toEqual([
      own,
      "http://10.0.0.5:3000",
    ]);
    expect(trustedOriginsOf(config, "http://127.0.0.1:3000/api", headers({ host: "127.0.0.1:3000" }))).toEqual([
      own,
      "http://10.0.0.5:3000",
    ]);
  });

  it("without one: the address the request was addressed to, when it is localhost or an IP address", () => {
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "192.0.2.7:3000", "app.localhost:3000"])
      expect(trustedOriginsOf({}, `http://${host}/api`, headers({ host }))).toEqual([`http://${host}`]);
  });

  it("without one, never a hostname: a DNS-rebinding page at evil.example reaching 127.0.0.1 is not trusted", () => {
    expect(trustedOriginsOf({}, "http://evil.example:3000/api", headers({ host: "evil.example:3000" }))).toEqual([]);
    expect(
      trustedOriginsOf({ extraOrigins: ["https://lb.internal"] }, "http://x/api", headers({ host: "lb.internal" })),
    ).toEqual(["https://lb.internal"]);
  });

  it("says what to set when a page's origin is not trusted", () => {
    expect(untrustedOriginMessage("http://10.0.0.5:3000", [own], { publicUrl: own })).toBe(
      "This app is configured for https://budgets.example.com (LB_PUBLIC_URL) and this page is at http://10.0.0.5:3000. Open it at https://budgets.example.com, or add http://10.0.0.5:3000 to LB_TRUSTED_ORIGINS.",
    );
    expect(untrustedOriginMessage(own, [own], { publicUrl: own })).toBeNull();
  });

  it.each([
    ["localhost", true],
    ["10.1.2.3", true],
    ["[2001:db8::1]", true],
    ["10.1.2.3.evil.example", false],
    ["localhost.evil.example", false],
    ["budgets.example.com", false],
  ])("isAddressHost(%s) is %s", (host, expected) => {
    expect(isAddressHost(host)).toBe(expected);
  });
});

describe("localPath", () => {
  it.each([
    ["/services/chat-api/waterfall?at=1", "/services/chat-api/waterfall?at=1"],
    [undefined, "/"],
    ["https://evil.example/", "/"],
    ["//evil.example/", "/"],
    ["/\\evil.example", "/"],
    ["javascript:alert(1)", "/"],
    // A browser drops tabs and newlines from URLs: "/\t/evil.example" is "//evil.example" to it.
    ["/\t/evil.example/x", "/"],
    ["/\n/evil.example/x", "/"],
    ["/\r\n/evil.example", "/"],
    ["/%09/evil.example", "/%09/evil.example"],
    ["/./..//evil.example", "/"],
    ["/services/../tradeoffs#top", "/tradeoffs#top"],
  ])("%s → %s", (next, expected) => {
    expect(localPath(next)).toBe(expected);
  });
});

describe("localPath, for any input", () => {
  it("is a path on this origin, whatever a browser makes of it", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `/${s}`),
          fc.stringMatching(/^[\/\\\t\n.%a-z:]{0,12}$/),
        ),
        (next) => {
          const path = localPath(next);
          const base = "https://budgets.example.com";
          expect(new URL(path, base).origin).toBe(base);
          expect(path.startsWith("/") && !path.startsWith("//") && !/[\u0000-\u001f\\]/.test(path)).toBe(true);
        },
      ),
    );
  });
});

describe("isOwnCallback", () => {
  const trusted = ["http://localhost:3000", "https://lb.vpn.example"];

  it.each([
    "/",
    "/services/chat-api?window=1h#slo",
    "http://localhost:3000/services",
    "https://lb.vpn.example",
    "https://lb.vpn.example/x?y=1",
  ])("takes %s", (url) => {
    expect(isOwnCallback(url, trusted)).toBe(true);
  });

  it.each([
    "https://evil.example/x",
    "http://evil.example",
    "//evil.example/x",
    "/\\evil.example/x",
    "/\tevil",
    "/./..//evil.example",
    "http://localhost:4444/x",
    "https://localhost:3000/x",
    "http://lb.vpn.example/x",
    "https://lb.vpn.example.evil.example/",
    "https://lb.vpn.example@evil.example/",
    "javascript:alert(1)",
    "data:text/html,hi",
    "services",
    "",
  ])("refuses %s", (url) => {
    expect(isOwnCallback(url, trusted)).toBe(false);
  });
});
