import type { Proposal } from "@/lib/domain/proposal";
import type { Change, Prediction, StageHistograms } from "@/lib/domain/whatif";

// What the main thread sends a compute worker and what it answers: plain data (structured clone).

export type PredictOptions = { quantile: number; targetMs: number; changes?: Change[]; bucketBounds?: boolean };

export type ComputeJob =
  | { kind: "predict"; stages: StageHistograms; runs: PredictOptions[] }
  | { kind: "propose"; stages: StageHistograms; options: { quantile: number; targetMs: number } };

export type ComputeOutcome =
  | { kind: "predict"; predictions: (Prediction | null)[] }
  | { kind: "propose"; proposal: Proposal };

export type WorkerReply = { ok: true; outcome: ComputeOutcome } | { ok: false; message: string };
