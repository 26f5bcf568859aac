import "server-only";
import type { Worker } from "node:worker_threads";
import { AppError } from "@/lib/errors";

// A bounded pool of worker threads, for work that would otherwise hold up every other request.
// Up to maxRunning workers are kept and reused (starting one costs tens of milliseconds); a job
// that fails or outlives its time limit ends its worker and the next job starts a fresh one; a
// few more jobs (maxWaiting) wait for a worker, the rest are told to come back (503).

export type WorkerPoolOptions<Outcome> = {
  /** Where the pool lives on globalThis, so module reloads (dev) share one pool. */
  globalKey: string;
  /** A new worker. Keep `new Worker(new URL("./…", import.meta.url))` in the file that owns the worker, for the bundler. */
  start: () => Worker;
  maxRunning: number;
  maxWaiting: number;
  /** The 503 message when maxWaiting jobs are already waiting. */
  busyMessage: string;
  /** The worker's answer as an outcome; throws when the answer is a failure. */
  read: (message: unknown, what: string) => Outcome;
  /** The error when the worker runs out of heap. */
  outOfMemory: (what: string) => AppError;
  /** The error when a job outlives its time limit. */
  timedOut: (timeoutMs: number, what: string) => AppError;
};

export type WorkerPool<Job, Outcome> = {
  /** `job` in a worker, answered within `timeoutMs`; `what` names the job in error messages. */
  run(job: Job, timeoutMs: number, what: string): Promise<Outcome>;
};

type PoolState = { idle: Worker[]; running: number; waiting: (() => void)[] };

export function createWorkerPool<Job, Outcome>(options: WorkerPoolOptions<Outcome>): WorkerPool<Job, Outcome> {
  const pools = globalThis as unknown as Record<string, PoolState | undefined>;
  const pool = (pools[options.globalKey] ??= { idle: [], running: 0, waiting: [] });

  async function acquire(): Promise<Worker> {
    if (pool.running < options.maxRunning) pool.running++;
    else if (pool.waiting.length >= options.maxWaiting) throw new AppError("UNAVAILABLE", options.busyMessage);
    // A released slot is handed straight to the next waiter, so at most maxRunning ever run.
    else await new Promise<void>((resolve) => pool.waiting.push(resolve));
    const worker = pool.idle.pop() ?? options.start();
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

  function runOn(worker: Worker, job: Job, timeoutMs: number, what: string): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      const onMessage = (message: unknown) => {
        cleanup();
        try {
          resolve(options.read(message, what));
        } catch (error) {
          reject(error);
        }
      };
      const onError = (error: Error) => {
        cleanup();
        reject((error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY" ? options.outOfMemory(what) : error);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`The ${what} stopped (exit code ${code}).`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(options.timedOut(timeoutMs, what));
      }, timeoutMs);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage(job);
    });
  }

  return {
    async run(job, timeoutMs, what) {
      const worker = await acquire();
      let outcome: Outcome;
      try {
        outcome = await runOn(worker, job, timeoutMs, what);
      } catch (error) {
        // A worker that failed or overran is not trusted with the next job.
        void worker.terminate();
        release(null);
        throw error;
      }
      release(worker);
      return outcome;
    },
  };
}
