import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  erlangC,
  maxRpsWithinWaitBudget,
  planCapacity,
  queueCurve,
  queueMetrics,
  waitQuantileS,
  allenCunneenWaitS,
  serviceTimeCs2,
} from "./capacity";

describe("planCapacity (Little's law)", () => {
  it("gives seed 002's plan: 50 RPS × 2 s on 8 slots at 80 % → 100 slots, 16 GPUs, 3.2 RPS each, 51.2 RPS, 20 % headroom", () => {
    const plan = planCapacity({ targetRps: 50, avgLatencyS: 2, maxConcurrentPerGpu: 8, targetUtilization: 0.8 });
    expect(plan.requiredConcurrentSlots).toBe(100);
    expect(plan.gpusNeeded).toBe(16);
    expect(plan.throughputPerGpuRps).toBeCloseTo(3.2, 12);
    expect(plan.totalCapacityRps).toBeCloseTo(51.2, 12);
    expect(plan.headroomPercent).toBeCloseTo(20, 12);
    // 16 GPUs × 8 slots / 2 s = 64 RPS with every slot busy, 28 % above the target.
    expect(plan.saturationRps).toBe(64);
    expect(plan.spareAtSaturationPercent).toBeCloseTo(28, 12);
  });

  it("gives seed 002's worked example: 8 slots at 2 s serve 4 RPS; 10 RPS need 20 slots, so 3 GPUs", () => {
    const one = planCapacity({ targetRps: 4, avgLatencyS: 2, maxConcurrentPerGpu: 8, targetUtilization: 1 });
    expect(one.throughputPerGpuRps).toBe(4);
    expect(one.gpusNeeded).toBe(1);
    const ten = planCapacity({ targetRps: 10, avgLatencyS: 2, maxConcurrentPerGpu: 8, targetUtilization: 1 });
    expect(ten.requiredConcurrentSlots).toBe(20);
    expect(ten.gpusNeeded).toBe(3);
  });

  it("does not round a float hair above a whole number up to one GPU more", () => {
    // 16 slots at 0.8 = 12.8 effective; 32 RPS × 0.4 s = 12.8 slots → exactly 1 GPU.
    expect(
      planCapacity({ targetRps: 32, avgLatencyS: 0.4, maxConcurrentPerGpu: 16, targetUtilization: 0.8 }).gpusNeeded,
    ).toBe(1);
  });
});

describe("queueMetrics (M/M/c, Erlang C)", () => {
  it("M/M/1 has seed 002's queue lengths: ρ 0.5 → Lq 0.5, ρ 0.8 → Lq 3.2, and Wq = ρ / (μ(1 − ρ))", () => {
    const half = queueMetrics({ arrivalRps: 0.5, serviceTimeS: 1, servers: 1 });
    expect(half.utilization).toBe(0.5);
    expect(half.probabilityOfWait).toBeCloseTo(0.5, 12); // M/M/1 waits with probability ρ
    expect(half.meanQueueLength).toBeCloseTo(0.5, 12);
    expect(half.meanWaitS).toBeCloseTo(1, 12); // 0.5 / (1 × 0.5)
    const busy = queueMetrics({ arrivalRps: 8, serviceTimeS: 0.1, servers: 1 });
    expect(busy.utilization).toBeCloseTo(0.8, 12);
    expect(busy.meanQueueLength).toBeCloseTo(3.2, 12);
    expect(busy.meanWaitS).toBeCloseTo(0.8 / (10 * 0.2), 12);
  });

  it("M/M/2 with λ = μ = 1 waits with probability 1/3 (Lq = 1/3, Wq = 1/3 s)", () => {
    const r = queueMetrics({ arrivalRps: 1, serviceTimeS: 1, servers: 2 });
    expect(r.utilization).toBe(0.5);
    expect(r.probabilityOfWait).toBeCloseTo(1 / 3, 12);
    expect(r.meanQueueLength).toBeCloseTo(1 / 3, 12);
    expect(r.meanWaitS).toBeCloseTo(1 / 3, 12);
    expect(r.meanInSystem).toBeCloseTo(4 / 3, 12);
  });

  it("is unstable at or above full utilisation, with no mean wait", () => {
    const r = queueMetrics({ arrivalRps: 10, serviceTimeS: 1, servers: 10 });
    expect(r).toMatchObject({ stable: false, probabilityOfWait: 1, meanQueueLength: null, meanWaitS: null });
  });

  it("Erlang C by recurrence equals the textbook factorial formula", () => {
    const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
    const textbook = (a: number, c: number) => {
      const rho = a / c;
      const top = a ** c / factorial(c) / (1 - rho);
      let sum = 0;
      for (let k = 0; k < c; k++) sum += a ** k / factorial(k);
      return top / (sum + top);
    };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.double({ min: 0.01, max: 0.99, noNaN: true }), (c, rho) => {
        expect(erlangC(rho * c, c)).toBeCloseTo(textbook(rho * c, c), 9);
      }),
    );
  });

  it("stays finite for a thousand servers, where factorials overflow", () => {
    const p = erlangC(950, 1000);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1);
  });
});

describe("wait quantiles and the rate at which queueing eats its budget", () => {
  it("M/M/1 at ρ 0.5 and μ 1: P(W > t) = 0.5 e^(−0.5 t), so p95 = 2 ln 10 s", () => {
    expect(waitQuantileS({ arrivalRps: 0.5, serviceTimeS: 1, servers: 1 }, 0.95)).toBeCloseTo(2 * Math.log(10), 12);
    // Only 1/3 of M/M/2 arrivals wait, so its median wait is 0.
    expect(waitQuantileS({ arrivalRps: 1, serviceTimeS: 1, servers: 2 }, 0.5)).toBe(0);
  });

  it("finds the rate whose wait quantile is exactly the budget", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.double({ min: 0.01, max: 5, noNaN: true }),
        fc.double({ min: 0.001, max: 2, noNaN: true }),
        (servers, serviceTimeS, budgetS) => {
          const rps = maxRpsWithinWaitBudget({ serviceTimeS, servers }, 0.95, budgetS);
          expect(rps).toBeLessThan(servers / serviceTimeS);
          expect(waitQuantileS({ arrivalRps: rps, serviceTimeS, servers }, 0.95)).toBeLessThanOrEqual(budgetS);
          const beyond = rps + (servers / serviceTimeS) * 1e-6;
          expect(waitQuantileS({ arrivalRps: beyond, serviceTimeS, servers }, 0.95)).toBeGreaterThan(budgetS * 0.999);
        },
      ),
    );
  });

  it("draws the hockey stick: waits rise with utilisation, steeply past 80 %", () => {
    const curve = queueCurve({ serviceTimeS: 1, servers: 1 }, 0.95);
    for (let i = 1; i < curve.length; i++) expect(curve[i]!.meanWaitMs).toBeGreaterThan(curve[i - 1]!.meanWaitMs);
    const at = (u: number) => curve.find((p) => Math.abs(p.utilization - u) < 1e-9)!;
    expect(at(0.5).meanWaitMs).toBeCloseTo(1000, 6);
    expect(at(0.9).meanWaitMs / at(0.8).meanWaitMs).toBeCloseTo(9 / 4, 6); // ρ/(1−ρ): 9 vs 4
  });
});

describe("M/G/c by Allen–Cunneen", () => {
  it("reads Cs² from a histogram: uniform on (0, 1] s has Var/E² = (1/12)/(1/4) = 1/3", () => {
    const uniform = Array.from({ length: 11 }, (_, i) => ({
      upperBound: i === 10 ? Infinity : (i + 1) / 10,
      count: i === 10 ? 1000 : (i + 1) * 100,
    }));
    expect(serviceTimeCs2(uniform)).toBeCloseTo(1 / 3, 3);
    // All at one value (a very narrow bucket): Cs² near 0, M/D/c-like.
    expect(
      serviceTimeCs2([
        { upperBound: 0.2399, count: 0 },
        { upperBound: 0.24, count: 10 },
        { upperBound: Infinity, count: 10 },
      ])!,
    ).toBeLessThan(1e-6);
    expect(serviceTimeCs2([])).toBeNull();
  });

  it("scales the M/M/c wait by (1 + Cs²) / 2: exponential service (Cs² = 1) changes nothing, deterministic halves it", () => {
    const input = { arrivalRps: 20, serviceTimeS: 0.24, servers: 8 };
    const mmc = waitQuantileS(input, 0.95);
    expect(mmc).toBeGreaterThan(0);
    expect(allenCunneenWaitS(input, 0.95, 1)).toBeCloseTo(mmc, 12);
    expect(allenCunneenWaitS(input, 0.95, 0)).toBeCloseTo(mmc / 2, 12);
    // Single server, mean wait: Pollaczek–Khinchine, Wq = λ E[S²] / (2 (1 − ρ)); for M/D/1 at ρ = 0.5, S = 1: 0.5.
    const md1 = { arrivalRps: 0.5, serviceTimeS: 1, servers: 1 };
    expect(queueMetrics(md1).meanWaitS! * ((1 + 0) / 2)).toBeCloseTo(0.5, 9);
  });
});
