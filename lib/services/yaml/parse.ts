import "server-only";
import { Worker } from "node:worker_threads";
import { AppError } from "@/lib/errors";
import { createWorkerPool } from "../workers/pool";

// YAML from requests is parsed in worker threads, so a large document never holds up other
// requests. Up to MAX_RUNNING workers are kept and reused (starting one costs tens of
// milliseconds); a job that outlives its time limit ends its worker. A few more jobs wait for a
// worker; the rest are told to come back.

export type ParsedDocument = { value: unknown; error: string | null };

export const YAML_LIMITS = { timeoutMs: 10_000, maxRunning: 2, maxWaiting: 8, heapMb: 256 } as const;

type Outcome = { documents: ParsedDocument[] } | { tooMany: true };
type Job = { text: string; maxDocuments: number; maxAliasCount: number };

const pool = createWorkerPool<Job, Outcome>({
  globalKey: "latencyBudgetsYamlPool",
  start: () =>
    new Worker(new URL("./parse-worker.mjs", import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: YAML_LIMITS.heapMb },
    }),
  maxRunning: YAML_LIMITS.maxRunning,
  maxWaiting: YAML_LIMITS.maxWaiting,
  busyMessage: "Too many documents are being imported at once. Try again in a few seconds.",
  read: (message) => message as Outcome,
  outOfMemory: () =>
    new AppError("PAYLOAD_TOO_LARGE", "The YAML needs too much memory to read. Send fewer or smaller documents."),
  timedOut: (timeoutMs) =>
    new AppError(
      "PAYLOAD_TOO_LARGE",
      `The YAML took longer than ${timeoutMs / 1000} s to read. Send fewer or smaller documents.`,
    ),
});

/** Every document of `text`, parsed (duplicate keys refused, aliases bounded) in a worker thread. */
export async function parseYamlDocuments(
  text: string,
  {
    maxDocuments,
    maxAliasCount,
    timeoutMs = YAML_LIMITS.timeoutMs,
  }: { maxDocuments: number; maxAliasCount: number; timeoutMs?: number },
): Promise<ParsedDocument[]> {
  const outcome = await pool.run({ text, maxDocuments, maxAliasCount }, timeoutMs, "YAML reader");
  if ("tooMany" in outcome) throw new AppError("PAYLOAD_TOO_LARGE", `At most ${maxDocuments} documents per import.`);
  return outcome.documents;
}
