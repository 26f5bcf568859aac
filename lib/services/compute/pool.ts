import "server-only";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Proposal } from "@/lib/domain/proposal";
import type { Prediction, StageHistograms } from "@/lib/domain/whatif";
import { AppError } from "@/lib/errors";
import { createWorkerPool } from "../workers/pool";
import type { ComputeJob, ComputeOutcome, PredictOptions, WorkerReply } from "./jobs";

// The what-if convolution and the budget proposal run in worker threads: with 100 components a
// proposal is dozens of convolutions (tens to hundreds of milliseconds), and on the request path
// that would hold up every other request. Up to MAX_RUNNING workers are kept and reused (starting
// one costs tens of milliseconds); a job that outlives its time limit ends its worker and the
// request is told so (503); a few more jobs wait for a worker, the rest are told to come back.

export const COMPUTE_LIMITS = { timeoutMs: 10_000, maxRunning: 2, maxWaiting: 16, heapMb: 256 } as const;

function startWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: COMPUTE_LIMITS.heapMb } };
  // Bundled by Next: the worker's entry is compiled with the app.
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./worker.ts", import.meta.url), options);
  // Not bundled (tsx, the tests): worker.ts is TypeScript and a worker does not inherit the
  // parent's module hooks, so the thread registers tsx's loader first, then loads it. (Code in a
  // string, so the bundler does not take tsx for part of the app.)
  const entry = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "worker.ts")).href;
  const code = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { ...options, eval: true });
}

const pool = createWorkerPool<ComputeJob, ComputeOutcome>({
  globalKey: "latencyBudgetsComputePool",
  start: startWorker,
  maxRunning: COMPUTE_LIMITS.maxRunning,
  maxWaiting: COMPUTE_LIMITS.maxWaiting,
  busyMessage: "Too many predictions are being computed at once. Try again in a few seconds.",
  read: (message, what) => {
    const reply = message as WorkerReply;
    if (reply.ok) return reply.outcome;
    throw new Error(`The ${what} failed: ${reply.message}`);
  },
  outOfMemory: (what) =>
    new AppError("UNAVAILABLE", `The ${what} needs too much memory. Try a shorter window or fewer components.`),
  timedOut: (timeoutMs, what) =>
    new AppError(
      "UNAVAILABLE",
      `The ${what} took longer than ${timeoutMs / 1000} s and was stopped. Try again, or with fewer components.`,
    ),
});

/** predictEndToEnd(stages, options) for each of `runs`, in a worker thread. */
export async function predictInWorker(
  stages: StageHistograms,
  runs: PredictOptions[],
  { timeoutMs = COMPUTE_LIMITS.timeoutMs }: { timeoutMs?: number } = {},
): Promise<(Prediction | null)[]> {
  const outcome = await pool.run({ kind: "predict", stages, runs }, timeoutMs, "what-if prediction");
  if (outcome.kind !== "predict") throw new Error("The compute worker answered another job.");
  return outcome.predictions;
}

/** proposeBudgets(stages, options) in a worker thread. */
export async function proposeInWorker(
  stages: StageHistograms,
  options: { quantile: number; targetMs: number },
  { timeoutMs = COMPUTE_LIMITS.timeoutMs }: { timeoutMs?: number } = {},
): Promise<Proposal> {
  const outcome = await pool.run({ kind: "propose", stages, options }, timeoutMs, "budget proposal");
  if (outcome.kind !== "propose") throw new Error("The compute worker answered another job.");
  return outcome.proposal;
}
