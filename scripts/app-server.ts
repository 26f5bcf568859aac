// The app's HTTP server: Next's request handler behind a Node server of our own, for what
// `next start` cannot do.
// - Each request's client address comes from the socket, or through the proxies the operator
//   trusts (LB_TRUSTED_PROXIES), and reaches the routes vouched for (lib/net/peer.ts): sign-in
//   limits and the audit trail never take a client's word for its address.
// - Request durations by route pattern are recorded for GET /metrics.
// - SIGTERM stops accepting connections, lets requests in flight finish (up to
//   LB_SHUTDOWN_TIMEOUT_S), then exits: a rolling deploy drops nothing.
//
//   node --import tsx scripts/app-server.ts [--dev] [--port 3000] [--host 127.0.0.1]
// Started by scripts/serve.ts (npm start, npm run demo), which prepares the database first.
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import next from "next";
import { clientAddressOf, parseTrustedProxies } from "../lib/net/client-address";
import { CLIENT_ADDRESS_HEADER, PEER_KEY_HEADER, peerKey } from "../lib/net/peer";
import { metrics } from "../lib/observability/metrics";
import { routeMatcher } from "../lib/observability/routes";

const { values } = parseArgs({
  options: {
    dev: { type: "boolean", default: false },
    port: { type: "string", default: process.env.PORT ?? "3000" },
    // Unset: every interface, IPv6 and IPv4 where the machine has both (Node's own default).
    host: { type: "string", default: process.env.LB_HOST || undefined },
  },
});

const FORWARDED = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip"];

function routePatterns(): string[] {
  const manifest = resolve(".next/app-path-routes-manifest.json");
  if (!existsSync(manifest)) return [];
  return Object.values(JSON.parse(readFileSync(manifest, "utf8")) as Record<string, string>);
}

/** Sets the vouched client address; forwarded headers only count when a trusted proxy sent them. */
function stampClient(request: IncomingMessage, trusted: ReturnType<typeof parseTrustedProxies>, key: string): void {
  const peer = request.socket.remoteAddress;
  const forwardedFor = request.headers["x-forwarded-for"];
  const address = clientAddressOf(peer, Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor, trusted);
  // Next fills the x-forwarded-* headers it lacks from the socket itself.
  if (!trusted.matches(peer ?? "")) for (const name of FORWARDED) delete request.headers[name];
  request.headers[CLIENT_ADDRESS_HEADER] = address;
  request.headers[PEER_KEY_HEADER] = key;
}

async function main() {
  const trusted = parseTrustedProxies(process.env.LB_TRUSTED_PROXIES);
  const key = peerKey();
  const port = Number(values.port);
  const app = next({ dev: values.dev, dir: process.cwd(), port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const routeOf = routeMatcher(routePatterns());
  const { httpDuration } = metrics();

  let inFlight = 0;
  let stopping = false;
  const server: Server = createServer((request, response) => {
    inFlight++;
    const stopTimer = httpDuration.startTimer();
    response.once("close", () => {
      inFlight--;
      stopTimer({ route: routeOf(request.url ?? "/"), method: request.method ?? "GET", status: response.statusCode });
    });
    // Keep-alive clients reconnect elsewhere once this instance is stopping.
    if (stopping) response.setHeader("connection", "close");
    stampClient(request, trusted, key);
    handle(request, response).catch((error: unknown) => {
      console.error("Unhandled error in the request handler", error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout (60 s)

  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    if (values.host) server.listen(port, values.host, done);
    else server.listen(port, done);
  });
  const everywhere = !values.host || values.host === "::" || values.host === "0.0.0.0";
  const shown = everywhere ? "localhost" : values.host!.includes(":") ? `[${values.host}]` : values.host;
  console.log(
    `Latency Budgets is listening on http://${shown}:${port}${everywhere ? " (all interfaces)" : ""}; trusted proxies: ${trusted.describe}`,
  );

  const graceMs = Number(process.env.LB_SHUTDOWN_TIMEOUT_S || 30) * 1000;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing ${inFlight} request(s) in flight, then stopping`);
    const closed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    const deadline = Date.now() + graceMs;
    while (inFlight > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      server.closeIdleConnections();
    }
    if (inFlight > 0) console.warn(`Stopping with ${inFlight} request(s) unfinished after ${graceMs / 1000} s`);
    server.closeAllConnections();
    await closed;
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
