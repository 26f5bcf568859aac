import "server-only";
import { displayUrl } from "@/lib/domain/display-url";
import { metrics } from "@/lib/observability/metrics";
import { nodeTransport, type Transport } from "./transport";

// A circuit breaker per Prometheus URL. A Prometheus that accepts connections and never answers
// (SIGSTOP, a wedged proxy) would make every view wait its full timeout, one after another.
// A refused connection opens the circuit at once. A timeout or a gateway error might be one slow
// query rather than a dead Prometheus, so it opens the circuit only when a trivial query, asked
// right then, fails too. The probe does not wait for the timeout: once a request has been outstanding
// for slowAfterMs (750 ms, well under the query timeout) it is asked then. While that probe runs (at
// most probeTimeoutMs, a second), other requests to the same Prometheus wait for its verdict instead
// of going to a server that may be hung: if it fails they fail fast with the open circuit, and so does
// every request still waiting on that Prometheus; if it answers they go ahead and a slow request keeps
// waiting its own timeout. So no view waits a full timeout on a hung Prometheus. While open, requests fail at once (callers serve their last good
// data marked stale) and one background probe at a time asks the trivial query; the first answer
// closes the circuit again.

export type BreakerState = {
  state: "closed" | "open";
  /** When the circuit opened (unix ms). */
  openedAt: number | null;
  /** What opened it. */
  reason: string | null;
  probes: number;
};

export class CircuitOpenError extends Error {
  constructor(
    readonly openedAt: number,
    reason: string,
  ) {
    super(reason);
    this.name = "CircuitOpenError";
  }
}

export type BreakerOptions = {
  /** Pause between failed probes. */
  retryMs?: number;
  /** A probe gives up after this long; requests wait at most this long for a confirming probe's verdict. */
  probeTimeoutMs?: number;
  /** A request outstanding this long asks the confirming probe; when it fails, requests in flight fail at once. */
  slowAfterMs?: number;
  transport?: Transport;
};

export type GuardedTransport = Transport & { readonly breaker: BreakerState };

const TRIPPING_STATUS = new Set([502, 503, 504]);

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

function describe(error: unknown): string {
  return isTimeout(error) ? "did not answer in time" : "could not be reached";
}

/** The transport to one Prometheus base URL, guarded by a circuit breaker. */
export function guardedTransport(baseUrl: string, options: BreakerOptions = {}): GuardedTransport {
  const retryMs = options.retryMs ?? 5000;
  const probeTimeoutMs = options.probeTimeoutMs ?? 1000;
  const slowAfterMs = options.slowAfterMs ?? 750;
  const send = options.transport ?? nodeTransport;
  const state: BreakerState = { state: "closed", openedAt: null, reason: null, probes: 0 };
  let probing = false;
  /** How to give up on each request in flight: an open circuit fails them all at once. */
  const inFlight = new Set<(error: CircuitOpenError) => void>();

  // Labels, messages and log lines name the URL as displayUrl shows it: no password, no query.
  const shown = displayUrl(baseUrl);
  const gauge = { prometheus: shown };
  metrics().breakerOpen.set(gauge, 0);
  const open = (reason: string) => {
    if (state.state === "open") return;
    Object.assign(state, { state: "open", openedAt: Date.now(), reason });
    console.warn(`Prometheus at ${shown} ${reason}: views serve their last good data until it answers again.`);
    metrics().breakerOpen.set(gauge, 1);
    metrics().breakerOpened.inc(gauge);
    for (const abandon of inFlight) abandon(openError());
    inFlight.clear();
    void probe();
  };

  const answersTrivialQuery = async (): Promise<boolean> => {
    try {
      const response = await send({
        url: `${baseUrl}/api/v1/query?query=vector(1)`,
        method: "GET",
        timeoutMs: probeTimeoutMs,
      });
      return response.status === 200;
    } catch {
      return false;
    }
  };

  /**
   * One failure that may be the query's own fault: open only if Prometheus itself is not answering.
   * The verdict is kept while it is pending so that requests arriving meanwhile can wait for it.
   */
  let confirming: Promise<void> | null = null;
  const confirm = (reason: string) => {
    if (confirming || state.state === "open") return;
    confirming = answersTrivialQuery().then((answers) => {
      confirming = null;
      if (!answers) open(reason);
    });
  };

  const openError = () =>
    new CircuitOpenError(state.openedAt!, `Prometheus ${state.reason}; checking again in the background`);

  async function probe(): Promise<void> {
    if (probing) return;
    probing = true;
    while (state.state === "open") {
      state.probes++;
      if (await answersTrivialQuery()) {
        Object.assign(state, { state: "closed", openedAt: null, reason: null });
        metrics().breakerOpen.set(gauge, 0);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, retryMs).unref?.());
    }
    probing = false;
  }

  const guarded = (async (request) => {
    // A function, not the field: TypeScript would keep its narrowing across the await.
    const isOpen = () => state.state === "open";
    if (isOpen()) throw openError();
    if (confirming) {
      await confirming;
      if (isOpen()) throw openError();
    }
    let abandon!: (error: CircuitOpenError) => void;
    const abandoned = new Promise<never>((_, reject) => (abandon = reject));
    inFlight.add(abandon);
    // Still no answer well before the timeout: ask whether Prometheus answers at all.
    const slow = setTimeout(() => confirm("did not answer in time"), slowAfterMs);
    slow.unref?.();
    const settled = () => {
      clearTimeout(slow);
      inFlight.delete(abandon);
    };
    try {
      // The request to a hung server is left to its own timeout; nobody waits for it any more.
      const response = await Promise.race([send(request), abandoned]);
      settled();
      if (TRIPPING_STATUS.has(response.status)) confirm(`answered HTTP ${response.status}`);
      return response;
    } catch (error) {
      settled();
      if (error instanceof CircuitOpenError) throw error;
      if (isTimeout(error)) confirm(describe(error));
      else open(describe(error));
      throw error;
    }
  }) as GuardedTransport;
  Object.defineProperty(guarded, "breaker", { get: () => ({ ...state }) });
  return guarded;
}

const globalForBreakers = globalThis as unknown as { latencyBudgetsBreakers?: Map<string, GuardedTransport> };

/** The process-wide guarded transport for a Prometheus URL: every client of that URL shares its circuit. */
export function sharedGuardedTransport(baseUrl: string, options?: BreakerOptions): GuardedTransport {
  const breakers = (globalForBreakers.latencyBudgetsBreakers ??= new Map());
  let guarded = breakers.get(baseUrl);
  if (!guarded) breakers.set(baseUrl, (guarded = guardedTransport(baseUrl, options)));
  return guarded;
}
