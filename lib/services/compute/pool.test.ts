import { describe, expect, it } from "vitest";
import type { Bucket } from "@/lib/domain/histogram";
import { proposeBudgets } from "@/lib/domain/proposal";
import { predictEndToEnd, type StageHistograms } from "@/lib/domain/whatif";
import { AppError } from "@/lib/errors";
import { predictInWorker, proposeInWorker } from "./pool";

// The worker threads answer what the domain answers in-process, the main thread's timers keep
// running while they compute, and a job past its time limit is a 503 with a message.

/** 0.5·(0, 100] ms uniform per component, in 20 buckets. */
const uniform100: Bucket[] = [
  ...Array.from({ length: 20 }, (_, i) => ({ upperBound: (i + 1) * 0.005, count: (i + 1) * 50 })),
  { upperBound: Number.POSITIVE_INFINITY, count: 1000 },
];
const pipeline = (stages: number, width: number): StageHistograms =>
  Array.from({ length: stages }, (_, s) => ({
    name: `S${s}`,
    components: Array.from({ length: width }, (_, c) => ({ name: `c${s}.${c}`, buckets: uniform100 })),
  }));

describe("compute workers", () => {
  it("predict the same as in-process: two uniform 0–100 ms components in parallel, p50 = 70.71 ms", async () => {
    const stages = pipeline(1, 2);
    const options = { quantile: 0.5, targetMs: 60, bucketBounds: true };
    const [inWorker] = await predictInWorker(stages, [options]);
    expect(inWorker).toEqual(predictEndToEnd(stages, options));
    expect(Math.abs(inWorker!.quantileMs - 100 * Math.sqrt(0.5))).toBeLessThanOrEqual(inWorker!.errorBoundMs);
  });

  it("propose the same as in-process, and the event loop keeps turning while 100 stages are convolved", async () => {
    const stages = pipeline(100, 1);
    const options = { quantile: 0.95, targetMs: 5200 };
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = ticks;
    const proposal = await proposeInWorker(stages, options);
    clearInterval(timer);
    expect(proposal).toEqual(proposeBudgets(stages, options));
    // In-process, not one timer would fire before the proposal returned.
    expect(ticks - started).toBeGreaterThan(0);
  });

  it("a job past its time limit is stopped and answered 503 with what to do; the next job still runs", async () => {
    const stages = pipeline(100, 1);
    const error = await proposeInWorker(stages, { quantile: 0.95, targetMs: 5200 }, { timeoutMs: 1 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(503);
    expect((error as AppError).message).toMatch(/took longer than 0\.001 s and was stopped/);
    const [again] = await predictInWorker(pipeline(1, 2), [{ quantile: 0.5, targetMs: 60 }]);
    expect(again!.quantileMs).toBeCloseTo(70.71, 0);
  });
});
