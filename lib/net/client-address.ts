import { BlockList, isIP } from "node:net";

// Who is on the other end of a request. Without a configured proxy it is the socket's peer,
// whatever X-Forwarded-For says (a client can send any). Behind proxies the operator lists
// (LB_TRUSTED_PROXIES), it is the right-most X-Forwarded-For entry that is not one of them: each
// trusted proxy appends the address it received the request from.

export type TrustedProxies = { matches(address: string): boolean; describe: string };

const NAMED: Record<string, [string, number, "ipv4" | "ipv6"][]> = {
  loopback: [
    ["127.0.0.0", 8, "ipv4"],
    ["::1", 128, "ipv6"],
  ],
  private: [
    ["10.0.0.0", 8, "ipv4"],
    ["172.16.0.0", 12, "ipv4"],
    ["192.168.0.0", 16, "ipv4"],
    ["fc00::", 7, "ipv6"],
  ],
};

/** `::ffff:10.0.0.1` → `10.0.0.1`; anything that is not an IP address → null. */
export function normalizeAddress(value: string | undefined | null): string | null {
  const trimmed = value?.trim().replace(/^\[(.*)\]$/, "$1");
  if (!trimmed) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed)?.[1];
  const address = mapped ?? trimmed;
  return isIP(address) ? address.toLowerCase() : null;
}

/**
 * Whether a listening address is reachable from this machine only: `localhost`, 127.0.0.0/8 or
 * ::1. Unset (every interface), 0.0.0.0, ::, any other address or a hostname (it may resolve to
 * anything) is not.
 */
export function isLoopbackHost(host: string | undefined | null): boolean {
  if (!host) return false;
  if (host.trim().toLowerCase() === "localhost") return true;
  const address = normalizeAddress(host);
  if (!address) return false;
  return isIP(address) === 4
    ? address.startsWith("127.")
    : address === "::1" || ipv6Groups(address)?.join(":") === "0:0:0:0:0:0:0:1";
}

/** An IPv6 address's eight 16-bit groups (a dotted IPv4 tail read as two), or null. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

/**
 * The key the sign-in limiter counts a client under: an IPv4 address as it is (also when it
 * arrives IPv4-mapped, `::ffff:198.51.100.7`), an IPv6 address by its /64, the block one host or
 * one household is usually given whole (`2001:db8:1:2::/64`); anything else as it is.
 */
export function limiterKey(address: string): string {
  const normalized = normalizeAddress(address);
  if (!normalized) return address;
  const groups = ipv6Groups(normalized);
  if (!groups) return normalized;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/**
 * Parses LB_TRUSTED_PROXIES: a comma-separated list of addresses, CIDR ranges and the names
 * `loopback` and `private`. Throws with a message that names the entry it cannot read.
 */
export function parseTrustedProxies(spec: string | undefined): TrustedProxies {
  const list = new BlockList();
  const entries = (spec ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const named = NAMED[entry.toLowerCase()];
    if (named) {
      for (const [network, prefix, family] of named) list.addSubnet(network, prefix, family);
      continue;
    }
    const [network, prefix, extra] = entry.split("/");
    const address = normalizeAddress(network);
    const family = address && isIP(address) === 6 ? "ipv6" : "ipv4";
    const bits = prefix === undefined ? (family === "ipv6" ? 128 : 32) : Number(prefix);
    if (!address || extra !== undefined || !Number.isInteger(bits) || bits < 0 || bits > (family === "ipv6" ? 128 : 32))
      throw new Error(
        `LB_TRUSTED_PROXIES: "${entry}" is not an address, a CIDR range (10.0.0.0/8) or one of loopback, private`,
      );
    list.addSubnet(address, bits, family);
  }
  return {
    matches: (address) => {
      const normalized = normalizeAddress(address);
      if (!normalized) return false;
      return list.check(normalized, isIP(normalized) === 6 ? "ipv6" : "ipv4");
    },
    describe: entries.length ? entries.join(", ") : "none",
  };
}

/** The client's address, from the socket's peer and, through trusted proxies only, X-Forwarded-For. */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies,
): string {
  const socket = normalizeAddress(peer) ?? "unknown";
  if (!trusted.matches(socket)) return socket;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((hop) => normalizeAddress(hop))
    .filter((hop): hop is string => hop !== null);
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted.matches(hops[i]!)) return hops[i]!;
  return hops[0] ?? socket;
}
