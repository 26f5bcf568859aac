import "server-only";
import { Worker } from "node:worker_threads";
import { AppError } from "@/lib/errors";

// YAML from requests is parsed in worker threads, so a large document never holds up other
// requests. Up to MAX_RUNNING workers are kept and reused (starting one costs tens of
// milliseconds); a job that outlives its time limit ends its worker. A few more jobs wait for a
// worker; the rest are told to come back.

export type ParsedDocument = { value: unknown; error: string | null };

export const YAML_LIMITS = { timeoutMs: 10_000, maxRunning: 2, maxWaiting: 8, heapMb: 256 } as const;

type Outcome = { documents: ParsedDocument[] } | { tooMany: true };
type Job = { text: string; maxDocuments: number; maxAliasCount: number };

type Pool = { idle: Worker[]; running: number; waiting: (() => void)[] };
const globalForYaml = globalThis as unknown as { latencyBudgetsYamlPool?: Pool };
const pool = (globalForYaml.latencyBudgetsYamlPool ??= { idle: [], running: 0, waiting: [] });

function startWorker(): Worker {
  return new Worker(new URL("./parse-worker.mjs", import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: YAML_LIMITS.heapMb },
  });
}

async function acquire(): Promise<Worker> {
  if (pool.running < YAML_LIMITS.maxRunning) pool.running++;
  else if (pool.waiting.length >= YAML_LIMITS.maxWaiting)
    throw new AppError("UNAVAILABLE", "Too many documents are being imported at once. Try again in a few seconds.");
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

function run(worker: Worker, job: Job, timeoutMs: number): Promise<Outcome> {
  return new Promise<Outcome>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    const onMessage = (message: Outcome) => {
      cleanup();
      resolve(message);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(
        (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY"
          ? new AppError(
              "PAYLOAD_TOO_LARGE",
              "The YAML needs too much memory to read. Send fewer or smaller documents.",
            )
          : error,
      );
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`The YAML reader stopped (exit code ${code}).`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new AppError(
          "PAYLOAD_TOO_LARGE",
          `The YAML took longer than ${timeoutMs / 1000} s to read. Send fewer or smaller documents.`,
        ),
      );
    }, timeoutMs);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage(job);
  });
}

/** Every document of `text`, parsed (duplicate keys refused, aliases bounded) in a worker thread. */
export async function parseYamlDocuments(
  text: string,
  {
    maxDocuments,
    maxAliasCount,
    timeoutMs = YAML_LIMITS.timeoutMs,
  }: { maxDocuments: number; maxAliasCount: number; timeoutMs?: number },
): Promise<ParsedDocument[]> {
  const worker = await acquire();
  let outcome: Outcome;
  try {
    outcome = await run(worker, { text, maxDocuments, maxAliasCount }, timeoutMs);
  } catch (error) {
    // A worker that failed or overran is not trusted with the next job.
    void worker.terminate();
    release(null);
    throw error;
  }
  release(worker);
  if ("tooMany" in outcome) throw new AppError("PAYLOAD_TOO_LARGE", `At most ${maxDocuments} documents per import.`);
  return outcome.documents;
}
