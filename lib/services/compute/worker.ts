import { parentPort } from "node:worker_threads";
import { proposeBudgets } from "@/lib/domain/proposal";
import { predictEndToEnd } from "@/lib/domain/whatif";
import type { ComputeJob, ComputeOutcome } from "./jobs";

// Runs the what-if convolution and the budget proposal off the event loop: ./pool.ts keeps a few
// of these worker threads and sends each one job at a time. Under Next's build the entry is
// bundled (new Worker(new URL(…)) is followed); under tsx and the tests it is loaded through tsx.

function run(job: ComputeJob): ComputeOutcome {
  switch (job.kind) {
    case "predict":
      return { kind: "predict", predictions: job.runs.map((r) => predictEndToEnd(job.stages, r)) };
    case "propose":
      return { kind: "propose", proposal: proposeBudgets(job.stages, job.options) };
  }
}

parentPort?.on("message", (job: ComputeJob) => {
  try {
    parentPort!.postMessage({ ok: true, outcome: run(job) });
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
