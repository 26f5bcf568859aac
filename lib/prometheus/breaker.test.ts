import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedTransport } from "./breaker";
import { createPrometheusClient } from "./client";

// A real TCP server that accepts connections and, while hung, never answers: what a SIGSTOPped
// Prometheus or a wedged proxy looks like. When it comes back it answers like Prometheus does.
// With onlySlowQueries it answers the breaker's trivial GET at once and hangs every POSTed query:
// a healthy Prometheus with one query too slow for its timeout.
let hung = true;
let onlySlowQueries = false;
const sockets = new Set<Socket>();
const server = createServer((socket) => {
  sockets.add(socket);
  socket.on("close", () => sockets.delete(socket));
  socket.on("error", () => undefined);
  socket.on("data", (chunk: Buffer) => {
    const isTrivialQuery = chunk.toString().startsWith("GET /api/v1/query?query=vector(1)");
    if (hung && !(onlySlowQueries && isTrivialQuery)) return;
    const body = JSON.stringify({ status: "success", data: { resultType: "vector", result: [] } });
    socket.end(
      `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
});
let url = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

describe("circuit breaker against a server that accepts and never replies", () => {
  it("waits one timeout, then fails fast with an explicit state, and closes once the server answers", async () => {
    const transport = guardedTransport(url, { retryMs: 200, probeTimeoutMs: 200 });
    const client = createPrometheusClient(url, { timeoutMs: 500, transport });

    const first = await timed(() => client.query("up", 1));
    expect(first.value).toMatchObject({ status: "error", errorType: "timeout" });
    expect(first.ms).toBeGreaterThanOrEqual(450);
    // The trivial query asked right after fails too (within its 200 ms): Prometheus is down.
    await expect.poll(() => client.breaker?.state, { timeout: 1000, interval: 20 }).toBe("open");
    expect(client.breaker).toMatchObject({ state: "open", reason: "did not answer in time" });

    const after = await Promise.all(Array.from({ length: 20 }, () => timed(() => client.query("up", 1))));
    for (const { ms, value } of after) {
      expect(value).toMatchObject({ status: "error", errorType: "circuit_open" });
      // Well under the 500 ms timeout (no request reached the server), with room for a busy machine.
      expect(ms).toBeLessThan(400);
    }
    expect((after[0]!.value as { error: string }).error).toMatch(
      /did not answer in time; checking again in the background/,
    );

    hung = false;
    const answeredAt = performance.now();
    let recovered = await client.query("up", 1);
    while (recovered.status !== "success" && performance.now() - answeredAt < 5000) {
      await new Promise((r) => setTimeout(r, 25));
      recovered = await client.query("up", 1);
    }
    expect(recovered.status).toBe("success");
    // One probe interval plus one probe: well inside the 30 s the dashboard promises.
    expect(performance.now() - answeredAt).toBeLessThan(1000);
    expect(client.breaker).toMatchObject({ state: "closed" });
  });

  it("one slow query does not open it while Prometheus answers a trivial one", async () => {
    onlySlowQueries = true;
    hung = true;
    try {
      const transport = guardedTransport(url, { retryMs: 200, probeTimeoutMs: 200 });
      const client = createPrometheusClient(url, { timeoutMs: 300, transport });
      for (let i = 0; i < 3; i++) {
        expect(await client.query("a_slow_28_day_query", 1)).toMatchObject({ errorType: "timeout" });
        await new Promise((r) => setTimeout(r, 250));
        expect(client.breaker?.state).toBe("closed");
      }
    } finally {
      onlySlowQueries = false;
      hung = false;
    }
  });

  it("after one timeout, a query asked while the probe confirms it waits for the probe and fails fast, not a second timeout", async () => {
    hung = true;
    try {
      // The early probe out of reach: this is the path of a request that timed out before it was asked.
      const transport = guardedTransport(url, { retryMs: 60_000, probeTimeoutMs: 300, slowAfterMs: 60_000 });
      const client = createPrometheusClient(url, { timeoutMs: 1500, transport });
      const first = await timed(() => client.query("up", 1));
      expect(first.value).toMatchObject({ errorType: "timeout" });
      expect(first.ms).toBeGreaterThanOrEqual(1400);
      await new Promise((r) => setTimeout(r, 100));
      expect(client.breaker?.state).toBe("closed"); // still confirming
      const second = await timed(() => client.query("up", 2));
      expect(second.value).toMatchObject({ errorType: "circuit_open" });
      // The probe's verdict (300 ms from the first timeout), not another 1.5 s timeout; loose for busy machines.
      expect(second.ms).toBeLessThan(1000);
    } finally {
      hung = false;
    }
  });

  it("a refused connection opens it at once", async () => {
    const transport = guardedTransport("http://127.0.0.1:1", { retryMs: 60_000 });
    const client = createPrometheusClient("http://127.0.0.1:1", { timeoutMs: 500, transport });
    expect(await client.query("up", 1)).toMatchObject({ errorType: "unreachable" });
    expect(await client.query("up", 1)).toMatchObject({ errorType: "circuit_open" });
  });
});
