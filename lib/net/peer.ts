import { randomBytes, timingSafeEqual } from "node:crypto";

// The app's HTTP server (scripts/app-server.ts) works out each request's client address from the
// socket (lib/net/client-address.ts) and hands it to the routes in a header, stamped with a key
// that exists only in this process. A client can send the same header, never the key: without
// it the address is "unknown", so a request that did not come through the app's server (a bare
// `next start`) is limited as one shared address rather than trusted.

export const CLIENT_ADDRESS_HEADER = "x-lb-client-address";
export const PEER_KEY_HEADER = "x-lb-peer-key";

const globalForPeer = globalThis as unknown as { latencyBudgetsPeerKey?: string };

/** The process's key, created at its first use (by the server, before any request). */
export function peerKey(): string {
  globalForPeer.latencyBudgetsPeerKey ??= randomBytes(24).toString("base64url");
  return globalForPeer.latencyBudgetsPeerKey;
}

/** The client address the app's server vouched for, or "unknown". */
export function clientAddress(headers: Headers): string {
  const key = globalForPeer.latencyBudgetsPeerKey;
  const presented = headers.get(PEER_KEY_HEADER);
  if (!key || !presented || presented.length !== key.length) return "unknown";
  if (!timingSafeEqual(Buffer.from(presented), Buffer.from(key))) return "unknown";
  return headers.get(CLIENT_ADDRESS_HEADER)?.slice(0, 64) || "unknown";
}

/** The headers the server sets on a request it received (tests call routes with them too). */
export function vouchedHeaders(address: string): Record<string, string> {
  return { [CLIENT_ADDRESS_HEADER]: address, [PEER_KEY_HEADER]: peerKey() };
}
