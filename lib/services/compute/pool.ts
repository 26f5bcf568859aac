import "server-only";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Proposal } from "@/lib/domain/proposal";
import type { Prediction, StageHistograms } from "@/lib/domain/whatif";
import { AppError } from "@/lib/errors";
import type { ComputeJob, ComputeOutcome, PredictOptions, WorkerReply } from "./jobs";

// The what-if convolution and the budget proposal run in worker threads: with 100 components a
// proposal is dozens of convolutions (tens to hundreds of milliseconds), and on the request path
// that would hold up every other request. Up to MAX_RUNNING workers are kept and reused (starting
// one costs tens of milliseconds); a job that outlives its time limit ends its worker and the
// request is told so (503); a few more jobs wait for a worker, the rest are told to come back.

export const COMPUTE_LIMITS = { timeoutMs: 10_000, maxRunning: 2, maxWaiting: 16, heapMb: 256 } as const;

type Pool = { idle: Worker[]; running: number; waiting: (() => void)[] };
const globalForCompute = globalThis as unknown as { latencyBudgetsComputePool?: Pool };
const pool = (globalForCompute.latencyBudgetsComputePool ??= { idle: [], running: 0, waiting: [] });

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

async function acquire(): Promise<Worker> {
  if (pool.running < COMPUTE_LIMITS.maxRunning) pool.running++;
  else if (pool.waiting.length >= COMPUTE_LIMITS.maxWaiting)
    throw new AppError("UNAVAILABLE", "Too many predictions are being computed at once. Try again in a few seconds.");
  // A released slot is handed straight to the next waiter, so at most maxRunning ever run.
  else await new Promise<void>((resolve) => pool.waiting.push(resolve));
  const worker = pool.idle.pop() ?? startWorker();
  worker.ref();
  return worker;
}

function release(worker: Worker | null): void {
  if (worker) {
    // An idle worker never keeps the process alive.
    worker.unref();
    pool.idle.push(worker);
  }
  const next = pool.waiting.shift();
  if (next) next();
  else pool.running--;
}

function run(worker: Worker, job: ComputeJob, timeoutMs: number, what: string): Promise<ComputeOutcome> {
  return new Promise<ComputeOutcome>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    const onMessage = (reply: WorkerReply) => {
      cleanup();
      if (reply.ok) resolve(reply.outcome);
      else reject(new Error(`The ${what} failed: ${reply.message}`));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(
        (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY"
          ? new AppError("UNAVAILABLE", `The ${what} needs too much memory. Try a shorter window or fewer components.`)
          : error,
      );
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`The ${what} stopped (exit code ${code}).`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new AppError(
          "UNAVAILABLE",
          `The ${what} took longer than ${timeoutMs / 1000} s and was stopped. Try again, or with fewer components.`,
        ),
      );
    }, timeoutMs);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage(job);
  });
}

async function compute(job: ComputeJob, timeoutMs: number, what: string): Promise<ComputeOutcome> {
  const worker = await acquire();
  let outcome: ComputeOutcome;
  try {
    outcome = await run(worker, job, timeoutMs, what);
  } catch (error) {
    // A worker that failed or overran is not trusted with the next job.
    void worker.terminate();
    release(null);
    throw error;
  }
  release(worker);
  return outcome;
}

/** predictEndToEnd(stages, options) for each of `runs`, in a worker thread. */
export async function predictInWorker(
  stages: StageHistograms,
  runs: PredictOptions[],
  { timeoutMs = COMPUTE_LIMITS.timeoutMs }: { timeoutMs?: number } = {},
): Promise<(Prediction | null)[]> {
  const outcome = await compute({ kind: "predict", stages, runs }, timeoutMs, "what-if prediction");
  if (outcome.kind !== "predict") throw new Error("The compute worker answered another job.");
  return outcome.predictions;
}

/** proposeBudgets(stages, options) in a worker thread. */
export async function proposeInWorker(
  stages: StageHistograms,
  options: { quantile: number; targetMs: number },
  { timeoutMs = COMPUTE_LIMITS.timeoutMs }: { timeoutMs?: number } = {},
): Promise<Proposal> {
  const outcome = await compute({ kind: "propose", stages, options }, timeoutMs, "budget proposal");
  if (outcome.kind !== "propose") throw new Error("The compute worker answered another job.");
  return outcome.proposal;
}
