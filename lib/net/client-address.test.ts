import { describe, expect, it } from "vitest";
import { clientAddressOf, isLoopbackHost, limiterKey, normalizeAddress, parseTrustedProxies } from "./client-address";

describe("clientAddressOf", () => {
  const none = parseTrustedProxies(undefined);
  const proxies = parseTrustedProxies("loopback, 10.1.0.0/16, 2001:db8::/32");

  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddressOf("203.0.113.9", "1.2.3.4", none)).toBe("203.0.113.9");
    expect(clientAddressOf("::ffff:203.0.113.9", undefined, none)).toBe("203.0.113.9");
    expect(clientAddressOf("127.0.0.1", "6.6.6.6", none)).toBe("127.0.0.1");
    expect(clientAddressOf(undefined, "6.6.6.6", none)).toBe("unknown");
  });

  it("behind trusted proxies, is the right-most entry that is not one of them", () => {
    // The client sent "6.6.6.6" itself; the proxy appended the real peer, 198.51.100.4.
    expect(clientAddressOf("127.0.0.1", "6.6.6.6, 198.51.100.4", proxies)).toBe("198.51.100.4");
    expect(clientAddressOf("10.1.2.3", "6.6.6.6, 198.51.100.4, 10.1.9.9", proxies)).toBe("198.51.100.4");
    expect(clientAddressOf("2001:db8::1", "2001:DB8:FFFF::7", proxies)).toBe("2001:db8:ffff::7");
  });

  it("a request from an untrusted peer cannot borrow a proxy's word", () => {
    expect(clientAddressOf("198.51.100.4", "127.0.0.1", proxies)).toBe("198.51.100.4");
  });

  it("skips entries that are not addresses and falls back to the left-most trusted hop", () => {
    expect(clientAddressOf("127.0.0.1", "garbage, 198.51.100.4, unknown", proxies)).toBe("198.51.100.4");
    expect(clientAddressOf("127.0.0.1", "10.1.0.5", proxies)).toBe("10.1.0.5");
    expect(clientAddressOf("127.0.0.1", "", proxies)).toBe("127.0.0.1");
  });
});

describe("parseTrustedProxies", () => {
  it("reads addresses, ranges and names, and refuses anything else by name", () => {
    const trusted = parseTrustedProxies("192.0.2.1,private");
    expect(trusted.matches("192.0.2.1")).toBe(true);
    expect(trusted.matches("192.0.2.2")).toBe(false);
    expect(trusted.matches("172.20.0.1")).toBe(true);
    expect(trusted.matches("fd00::1")).toBe(true);
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/"10.0.0.0\/33" is not an address/);
    expect(() => parseTrustedProxies("proxy.internal")).toThrow(/"proxy.internal"/);
  });

  it("normalizes IPv4-mapped and bracketed addresses", () => {
    expect(normalizeAddress("[::1]")).toBe("::1");
    expect(normalizeAddress("::FFFF:10.0.0.1")).toBe("10.0.0.1");
    expect(normalizeAddress("not an ip")).toBeNull();
  });
});

describe("limiterKey", () => {
  it("counts every address of one IPv6 /64 as one client, however it is written", () => {
    const inOne64 = [
      "2001:db8:1:2::1",
      "2001:db8:1:2:ffff:ffff:ffff:fffe",
      "2001:0DB8:0001:0002:0000:0000:0000:0042",
      "[2001:db8:1:2:abcd::7]",
      "2001:db8:1:2::192.0.2.1",
    ];
    expect(new Set(inOne64.map(limiterKey))).toEqual(new Set(["2001:db8:1:2::/64"]));
  });

  it("keeps neighbouring /64s and other networks apart", () => {
    expect(limiterKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(limiterKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limiterKey("::1")).toBe("0:0:0:0::/64");
    expect(limiterKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("counts an IPv4 client as its address, also when it arrives IPv4-mapped", () => {
    expect(limiterKey("198.51.100.7")).toBe("198.51.100.7");
    expect(limiterKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(limiterKey("::ffff:c633:6407")).toBe("198.51.100.7");
    expect(limiterKey("198.51.100.8")).not.toBe(limiterKey("198.51.100.7"));
  });

  it("leaves what is not an address as it is", () => {
    expect(limiterKey("unknown")).toBe("unknown");
  });
});

describe("isLoopbackHost", () => {
  it("is true only for addresses this machine alone reaches", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "0:0:0:0:0:0:0:1", "localhost", "LOCALHOST"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      undefined,
      "",
      "0.0.0.0",
      "::",
      "192.168.1.5",
      "10.0.0.1",
      "::ffff:10.0.0.1",
      "example.com",
      "128.0.0.1",
    ])
      expect(isLoopbackHost(host), String(host)).toBe(false);
  });
});
