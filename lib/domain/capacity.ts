import { normaliseBuckets, type Bucket } from "./histogram";

// Capacity from queueing theory. Little's law (L = λW) sizes a fleet; M/M/c with Erlang C says
// how long requests wait for a free slot as utilisation rises, and so at what arrival rate the
// queue stage alone would eat its latency budget. Pure: numbers in, numbers out.

export type PlanInput = {
  targetRps: number;
  avgLatencyS: number;
  maxConcurrentPerGpu: number;
  /** The share of each GPU's slots planned to be busy (0.8 keeps the queue short). */
  targetUtilization: number;
};

export type CapacityPlan = {
  /** L = λW: requests in flight at the target rate. */
  requiredConcurrentSlots: number;
  gpusNeeded: number;
  /** What one GPU serves at the target utilisation: slots × utilisation / latency. */
  throughputPerGpuRps: number;
  totalCapacityRps: number;
  /** Capacity held back for bursts: 1 − target utilisation. */
  headroomPercent: number;
  /** What the GPUs serve with every slot busy, and how far above the target rate that is. */
  saturationRps: number;
  spareAtSaturationPercent: number;
};

/** Whole GPUs needed; a ratio a hair over an integer from float noise (6.4 × 2.5) is that integer. */
function wholeUnits(ratio: number): number {
  const rounded = Math.round(ratio);
  return Math.abs(ratio - rounded) < 1e-9 ? rounded : Math.ceil(ratio);
}

export function planCapacity({
  targetRps,
  avgLatencyS,
  maxConcurrentPerGpu,
  targetUtilization,
}: PlanInput): CapacityPlan {
  const requiredConcurrentSlots = targetRps * avgLatencyS;
  const effectiveSlotsPerGpu = maxConcurrentPerGpu * targetUtilization;
  const gpusNeeded = Math.max(1, wholeUnits(requiredConcurrentSlots / effectiveSlotsPerGpu));
  const throughputPerGpuRps = effectiveSlotsPerGpu / avgLatencyS;
  const saturationRps = (gpusNeeded * maxConcurrentPerGpu) / avgLatencyS;
  return {
    requiredConcurrentSlots,
    gpusNeeded,
    throughputPerGpuRps,
    totalCapacityRps: gpusNeeded * throughputPerGpuRps,
    headroomPercent: (1 - targetUtilization) * 100,
    saturationRps,
    spareAtSaturationPercent: targetRps > 0 ? (saturationRps / targetRps - 1) * 100 : 0,
  };
}

export type QueueInput = { arrivalRps: number; serviceTimeS: number; servers: number };

export type QueueResult = {
  /** ρ = λ / (c μ). */
  utilization: number;
  /** False when ρ ≥ 1: the queue grows without bound and waits have no mean. */
  stable: boolean;
  /** Erlang C: the chance an arriving request finds every server busy. */
  probabilityOfWait: number;
  /** Lq; null when unstable. */
  meanQueueLength: number | null;
  /** Wq = Lq / λ; null when unstable. */
  meanWaitS: number | null;
  /** L = Lq + λ/μ (Little's law over queue and service). */
  meanInSystem: number | null;
};

/**
 * Erlang C by the Erlang B recurrence (B₀ = 1, Bₖ = A·Bₖ₋₁ / (k + A·Bₖ₋₁)), which stays exact
 * for thousands of servers where the factorial formula overflows.
 */
export function erlangC(offeredLoad: number, servers: number): number {
  const rho = offeredLoad / servers;
  if (rho >= 1) return 1;
  if (offeredLoad <= 0) return 0;
  let b = 1;
  for (let k = 1; k <= servers; k++) b = (offeredLoad * b) / (k + offeredLoad * b);
  return b / (1 - rho * (1 - b));
}

/** M/M/c (c = 1 is M/M/1): Poisson arrivals, exponential service, c servers, one queue. */
export function queueMetrics({ arrivalRps, serviceTimeS, servers }: QueueInput): QueueResult {
  const offered = arrivalRps * serviceTimeS;
  const utilization = offered / servers;
  if (utilization >= 1)
    return {
      utilization,
      stable: false,
      probabilityOfWait: 1,
      meanQueueLength: null,
      meanWaitS: null,
      meanInSystem: null,
    };
  const probabilityOfWait = erlangC(offered, servers);
  const meanQueueLength = (probabilityOfWait * utilization) / (1 - utilization);
  const meanWaitS = arrivalRps > 0 ? meanQueueLength / arrivalRps : 0;
  return {
    utilization,
    stable: true,
    probabilityOfWait,
    meanQueueLength,
    meanWaitS,
    meanInSystem: meanQueueLength + offered,
  };
}

/**
 * The q-quantile of the wait in M/M/c: P(Wq > t) = C · e^(−(cμ − λ)t), so the wait is 0 when
 * C ≤ 1 − q and ln(C / (1 − q)) / (cμ − λ) otherwise. Infinity when unstable.
 */
export function waitQuantileS(input: QueueInput, q: number): number {
  const { arrivalRps, serviceTimeS, servers } = input;
  const result = queueMetrics(input);
  if (!result.stable) return Number.POSITIVE_INFINITY;
  const tail = 1 - q;
  if (result.probabilityOfWait <= tail) return 0;
  const drain = servers / serviceTimeS - arrivalRps;
  return Math.log(result.probabilityOfWait / tail) / drain;
}

/**
 * The highest arrival rate at which the q-quantile of the queue wait stays within `budgetS`: the
 * wait quantile rises monotonically with λ, so bisection over (0, cμ) finds it.
 */
export function maxRpsWithinWaitBudget(
  { serviceTimeS, servers }: Omit<QueueInput, "arrivalRps">,
  q: number,
  budgetS: number,
): number {
  const saturation = servers / serviceTimeS;
  let low = 0;
  let high = saturation;
  for (let i = 0; i < 100 && high - low > saturation * 1e-12; i++) {
    const mid = (low + high) / 2;
    if (waitQuantileS({ arrivalRps: mid, serviceTimeS, servers }, q) <= budgetS) low = mid;
    else high = mid;
  }
  return low;
}

export type CurvePoint = { utilization: number; arrivalRps: number; meanWaitMs: number; waitQuantileMs: number };

/** Wait against utilisation for the chart: from 5 % to 99 % busy, denser where the curve turns up. */
export function queueCurve({ serviceTimeS, servers }: Omit<QueueInput, "arrivalRps">, q: number): CurvePoint[] {
  const points: CurvePoint[] = [];
  const utilizations = [
    ...Array.from({ length: 15 }, (_, i) => 0.05 + i * 0.05),
    ...Array.from({ length: 20 }, (_, i) => 0.8 + i * 0.01),
  ];
  for (const utilization of utilizations) {
    const arrivalRps = (utilization * servers) / serviceTimeS;
    const input = { arrivalRps, serviceTimeS, servers };
    points.push({
      utilization,
      arrivalRps,
      meanWaitMs: (queueMetrics(input).meanWaitS ?? Number.POSITIVE_INFINITY) * 1000,
      waitQuantileMs: waitQuantileS(input, q) * 1000,
    });
  }
  return points;
}

/**
 * The squared coefficient of variation of service times, Cs² = Var(S) / E[S]², read from a
 * histogram as Prometheus reads one (uniform inside each bucket). The +Inf bucket's share is put
 * at the last finite bound, so a heavy tail there makes Cs² an underestimate; null without data.
 */
export function serviceTimeCs2(buckets: readonly Bucket[]): number | null {
  const sorted = normaliseBuckets(buckets);
  const total = sorted[sorted.length - 1]?.count ?? 0;
  if (!(total > 0) || sorted.length < 2) return null;
  let previousBound = 0;
  let previousCount = 0;
  let m1 = 0;
  let m2 = 0;
  for (const bucket of sorted) {
    const share = (bucket.count - previousCount) / total;
    const [a, b] = Number.isFinite(bucket.upperBound)
      ? [Math.max(0, previousBound), bucket.upperBound]
      : [previousBound, previousBound];
    // Uniform on [a, b]: E = (a + b) / 2, E² = (a² + ab + b²) / 3.
    m1 += (share * (a + b)) / 2;
    m2 += (share * (a * a + a * b + b * b)) / 3;
    previousBound = Number.isFinite(bucket.upperBound) ? bucket.upperBound : previousBound;
    previousCount = bucket.count;
  }
  return m1 > 0 ? Math.max(0, m2 / (m1 * m1) - 1) : null;
}

/**
 * Allen–Cunneen's M/G/c approximation: the M/M/c wait scaled by (Ca² + Cs²) / 2, with Poisson
 * arrivals (Ca² = 1) and the service times' own Cs². Exact for c = 1 means (Pollaczek–Khinchine);
 * the quantile is scaled the same way, an approximation labelled as such where it is shown.
 */
export function allenCunneenWaitS(input: QueueInput, q: number, cs2: number): number {
  return waitQuantileS(input, q) * ((1 + cs2) / 2);
}
