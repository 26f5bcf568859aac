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

/** The early probe out of reach: these cases are about a request that timed out before it was asked. */
const NO_EARLY_PROBE = 60_000;

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
      slowAfterMs: NO_EARLY_PROBE,
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
      slowAfterMs: NO_EARLY_PROBE,
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
      slowAfterMs: NO_EARLY_PROBE,
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

  it("a request outstanding past slowAfterMs asks the probe then; when it fails, every request in flight fails at once with the open circuit", async () => {
    const prometheus = fakePrometheus(() => "hung");
    const guarded = guardedTransport("http://prometheus.test", {
      probeTimeoutMs: 1000,
      slowAfterMs: 750,
      retryMs: 60_000,
      transport: prometheus.transport,
    });

    const first = settle(guarded(query()));
    await vi.advanceTimersByTimeAsync(500);
    const second = settle(guarded(query())); // sent: no probe yet
    await vi.advanceTimersByTimeAsync(249);
    expect(prometheus.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    // 750 ms without an answer: the trivial probe goes now, not after the 4 s timeout.
    expect(prometheus.sent.map((s) => [s.url.endsWith("vector(1)"), s.at])).toEqual([
      [false, 0],
      [false, 500],
      [true, 750],
    ]);
    await vi.advanceTimersByTimeAsync(250);
    const third = settle(guarded(query())); // at 1000: waits for the probe's verdict, not sent
    await vi.advanceTimersByTimeAsync(749);
    expect([first.at, second.at, third.at]).toEqual([null, null, null]);
    expect(guarded.breaker.state).toBe("closed");
    expect(prometheus.sent).toHaveLength(3);

    await vi.advanceTimersByTimeAsync(1);
    // The probe failed at 1750: the circuit opens and the two requests in flight give up with it.
    expect(guarded.breaker).toMatchObject({ state: "open", reason: "did not answer in time", openedAt: 1750 });
    for (const outcome of [first, second, third]) {
      expect(outcome.at).toBe(1750);
      expect(outcome.error).toBeInstanceOf(CircuitOpenError);
    }
    // Their own timeouts, later, change nothing: the circuit stays open, and the only probe since is
    // the recovery probe the opening started (the next waits retryMs).
    await vi.advanceTimersByTimeAsync(5000);
    expect(guarded.breaker.state).toBe("open");
    expect(prometheus.sent.filter((s) => s.url.endsWith("vector(1)")).map((s) => s.at)).toEqual([750, 1750]);
  });

  it("a slow request on a Prometheus that answers the probe keeps waiting its own timeout, and the circuit stays closed", async () => {
    const prometheus = fakePrometheus(() => "slow-queries-only", 300);
    const guarded = guardedTransport("http://prometheus.test", {
      probeTimeoutMs: 1000,
      slowAfterMs: 750,
      transport: prometheus.transport,
    });

    const slow = settle(guarded(query()));
    await vi.advanceTimersByTimeAsync(900);
    const next = settle(guarded(query(2000))); // at 900: waits for the probe asked at 750
    await vi.advanceTimersByTimeAsync(149);
    expect(prometheus.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    // The probe answered at 1050: the waiting request goes then.
    expect(prometheus.sent.map((s) => s.at)).toEqual([0, 750, 1050]);
    expect(guarded.breaker.state).toBe("closed");
    await vi.advanceTimersByTimeAsync(2000);
    expect(next).toMatchObject({ at: 3050, error: expect.objectContaining({ name: "TimeoutError" }) });
    expect(slow.at).toBeNull();
    await vi.advanceTimersByTimeAsync(950);
    expect(slow).toMatchObject({ at: 4000, error: expect.objectContaining({ name: "TimeoutError" }) });
  });
});
