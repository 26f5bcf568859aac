import "server-only";
import { Worker } from "node:worker_threads";
import { AppError } from "@/lib/errors";

// YAML from requests is parsed in a worker thread, so a large document never holds up other
// requests, and the worker is ended when it takes longer than its time limit. At most
// MAX_RUNNING parse at once; a few more wait; the rest are told to come back.

export type ParsedDocument = { value: unknown; error: string | null };

export const YAML_LIMITS = { timeoutMs: 10_000, maxRunning: 2, maxWaiting: 8, heapMb: 256 } as const;

type Slot = () => void;
const state = { running: 0, waiting: [] as Slot[] };

async function acquire(): Promise<void> {
  if (state.running < YAML_LIMITS.maxRunning) {
    state.running++;
    return;
  }
  if (state.waiting.length >= YAML_LIMITS.maxWaiting)
    throw new AppError("UNAVAILABLE", "Too many documents are being imported at once. Try again in a few seconds.");
  await new Promise<void>((resolve) => state.waiting.push(resolve));
}

function release(): void {
  const next = state.waiting.shift();
  if (next) next();
  else state.running--;
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
  await acquire();
  try {
    const outcome = await new Promise<{ documents: ParsedDocument[] } | { tooMany: true }>((resolve, reject) => {
      const worker = new Worker(new URL("./parse-worker.mjs", import.meta.url), {
        workerData: { text, maxDocuments, maxAliasCount },
        resourceLimits: { maxOldGenerationSizeMb: YAML_LIMITS.heapMb },
      });
      let settled = false;
      const settle = (done: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void worker.terminate();
        done();
      };
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(
              new AppError(
                "PAYLOAD_TOO_LARGE",
                `The YAML took longer than ${timeoutMs / 1000} s to read. Send fewer or smaller documents.`,
              ),
            ),
          ),
        timeoutMs,
      );
      worker.once("message", (message) =>
        settle(() => resolve(message as { documents: ParsedDocument[] } | { tooMany: true })),
      );
      worker.once("error", (error) =>
        settle(() =>
          reject(
            (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY"
              ? new AppError(
                  "PAYLOAD_TOO_LARGE",
                  "The YAML needs too much memory to read. Send fewer or smaller documents.",
                )
              : error,
          ),
        ),
      );
      worker.once("exit", (code) => settle(() => reject(new Error(`The YAML reader stopped (exit code ${code}).`))));
    });
    if ("tooMany" in outcome) throw new AppError("PAYLOAD_TOO_LARGE", `At most ${maxDocuments} documents per import.`);
    return outcome.documents;
  } finally {
    release();
  }
}
