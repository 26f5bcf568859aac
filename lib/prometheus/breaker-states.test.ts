import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CircuitOpenError, guardedTransport } from "./breaker";
import { TransportTimeoutError, type HttpRequest, type Transport } from "./transport";

// The breaker's states on a clock the test moves: a fake Prometheus that either never answers
// (every request fails with a timeout after its own timeoutMs) or answers the trivial query after
// `trivialAnswerMs` and hangs the rest (one slow query on a healthy Prometheus).

type Mode = "hung" | "slow-queries-only";

function fakePrometheus(mode: () => Mode, trivialAnswerMs = 300) {
  const sent: { url: string; at: number }[] = [];
  const transport: Transport = (request: HttpRequest) => {
    sent.push({ url: request.url, at: Date.now() });
    const trivial = request.url.endsWith("/api/v1/query?query=vector(1)");
    return new Promise((resolve, reject) => {
      if (trivial && mode() === "slow-queries-only")
        setTimeout(() => resolve({ status: 200, body: "{}" }), trivialAnswerMs);
      else setTimeout(() => reject(new TransportTimeoutError(request.timeoutMs)), request.timeoutMs);
    });
  };
  return { transport, sent };
}

const query = (timeoutMs = 4000): HttpRequest => ({
  url: "http://prometheus.test/api/v1/query",
  method: "POST",
  body: "query=up",
  timeoutMs,
});

/** When a promise settles, on the fake clock, and how. */
function settle<T>(promise: Promise<T>) {
  const outcome: { at: number | null; value?: T; error?: unknown } = { at: null };
  promise.then(
    (value) => Object.assign(outcome, { at: Date.now(), value }),
    (error: unknown) => Object.assign(outcome, { at: Date.now(), error }),
  );
  return outcome;
}

describe("circuit breaker states (fake clock)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("while a timeout is being confirmed, a request waits for the probe's verdict and fails fast when it fails", async () => {
    const prometheus = fakePrometheus(() => "hung");
    const guarded = guardedTransport("http://prometheus.test", {
      probeTimeoutMs: 1000,
      retryMs: 5000,
      transport: prometheus.transport,
    });

    const first = settle(guarded(query()));
    await vi.advanceTimersByTimeAsync(4000);
    expect(first.at).toBe(4000);
    expect(first.error).toMatchObject({ name: "TimeoutError" });
    // The confirming probe is on its way; the breaker is still closed.
    expect(prometheus.sent.map((s) => s.url)).toEqual([
      "http://prometheus.test/api/v1/query",
      "http://prometheus.test/api/v1/query?query=vector(1)",
    ]);
    expect(guarded.breaker.state).toBe("closed");

    await vi.advanceTimersByTimeAsync(100);
    const second = settle(guarded(query()));
    const third = settle(guarded(query()));
    await vi.advanceTimersByTimeAsync(899);
    expect(second.at).toBeNull();
    // Neither waiting request went to the hung server.
    expect(prometheus.sent).toHaveLength(2);

    await vi.advanceTimersByTimeAsync(1);
    expect(guarded.breaker).toMatchObject({ state: "open", reason: "did not answer in time" });
    for (const waited of [second, third]) {
      expect(waited.at).toBe(5000); // the probe's verdict, 900 ms after the request, not a 4 s timeout
      expect(waited.error).toBeInstanceOf(CircuitOpenError);
    }
    // Once open, requests fail at once.
    const fourth = settle(guarded(query()));
    await vi.advanceTimersByTimeAsync(0);
    expect(fourth).toMatchObject({ at: 5000, error: expect.any(CircuitOpenError) });
  });

  it("while a timeout is being confirmed, a request waits for the verdict and goes ahead when Prometheus answers the probe", async () => {
    const prometheus = fakePrometheus(() => "slow-queries-only", 300);
    const guarded = guardedTransport("http://prometheus.test", {
      probeTimeoutMs: 1000,
      transport: prometheus.transport,
    });

    const slow = settle(guarded(query()));
    await vi.advanceTimersByTimeAsync(4100);
    expect(slow.error).toMatchObject({ name: "TimeoutError" });
    const next = settle(guarded(query(2000)));
    await vi.advanceTimersByTimeAsync(199);
    expect(prometheus.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    // The probe answered at 4300: the waiting request is sent then, and the circuit stays closed.
    expect(prometheus.sent.map((s) => s.at)).toEqual([0, 4000, 4300]);
    expect(guarded.breaker.state).toBe("closed");
    await vi.advanceTimersByTimeAsync(2000);
    expect(next).toMatchObject({ at: 6300, error: expect.objectContaining({ name: "TimeoutError" }) });
  });

  it("asks one confirming probe however many requests time out together", async () => {
    const prometheus = fakePrometheus(() => "hung");
    const guarded = guardedTransport("http://prometheus.test", {
      probeTimeoutMs: 1000,
      retryMs: 60_000,
      transport: prometheus.transport,
    });
    const together = Array.from({ length: 5 }, () => settle(guarded(query())));
    await vi.advanceTimersByTimeAsync(4000);
    expect(together.every((r) => r.at === 4000)).toBe(true);
    expect(prometheus.sent.filter((s) => s.url.endsWith("vector(1)"))).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(guarded.breaker.state).toBe("open");
  });
});
