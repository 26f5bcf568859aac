import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isCrossSiteMutation } from "./security";

const own = "https://budgets.example.com";
const headers = (h: Record<string, string>) => new Headers(h);

describe("isCrossSiteMutation", () => {
  it.each([
    ["POST from the app itself", "POST", { origin: own }, false],
    ["POST from another site", "POST", { origin: "https://evil.example" }, true],
    ["POST from an opaque origin (Origin: null)", "POST", { origin: "null" }, true],
    ["PUT from a sibling port", "PUT", { origin: "https://budgets.example.com:8443" }, true],
    ["DELETE marked cross-site, without Origin", "DELETE", { "sec-fetch-site": "cross-site" }, true],
    ["PATCH from a sibling subdomain", "PATCH", { "sec-fetch-site": "same-site" }, true],
    ["POST from curl or CI (no Origin, no Sec-Fetch-Site)", "POST", {}, false],
    ["POST marked same-origin", "POST", { "sec-fetch-site": "same-origin" }, false],
    ["GET from another site (reads change nothing)", "GET", { origin: "https://evil.example" }, false],
  ])("%s", (_, method, h, expected) => {
    expect(isCrossSiteMutation(method, headers(h), [own])).toBe(expected);
  });
});

describe("contentSecurityPolicy", () => {
  const policy = contentSecurityPolicy("abc123");
  it("never allows eval, framing or foreign scripts", () => {
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(policy).toContain("object-src 'none'");
    expect(policy.match(/script-src[^;]*/)![0]).not.toContain("unsafe-inline");
  });
});
