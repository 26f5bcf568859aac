// The sentence a PM reads: ship, do not ship, a trade-off to weigh, or not yet, and why, in
// plain words with the numbers. Every judgement uses intervals, never point estimates alone.

/** A relative change of treatment against control with its interval (null: unbounded). */
export type Change = {
  relative: number | null;
  relativeLower: number | null;
  relativeUpper: number | null;
  isSignificant: boolean;
};

export type GuardrailStatus = "passed" | "failed" | "unclear";

export type VerdictInput = {
  srmMismatch: boolean;
  /** What the verdict judges, e.g. "TTFT p95". */
  label: string;
  /** Treatment vs control at the judged percentile; null when a side has too few samples. */
  latency: Change | null;
  /** Why latency is null. */
  latencyReason: string | null;
  /** Cost per 1k tokens; null when not measured. */
  cost: Change | null;
  guardrail: { status: GuardrailStatus; description: string } | null;
};

export type Decision = "ship" | "do-not-ship" | "trade-off" | "inconclusive" | "no-verdict";
export type Verdict = { decision: Decision; sentence: string };

const whole = (relative: number | null) => `${Math.round(Math.abs(relative ?? 0) * 100)} %`;
const signed = (relative: number | null) =>
  relative === null
    ? "unbounded"
    : `${relative > 0 ? "+" : relative < 0 ? "−" : ""}${(Math.abs(relative) * 100).toFixed(1)} %`;
const interval = (c: Change) => `[${signed(c.relativeLower)}, ${signed(c.relativeUpper)}]`;
const isDown = (c: Change) => (c.relative ?? 0) < 0;

export function verdictOf(input: VerdictInput): Verdict {
  const { latency, cost, guardrail, label } = input;
  if (input.srmMismatch) {
    return {
      decision: "no-verdict",
      sentence:
        "No verdict: the variants' sample counts do not match their traffic weights (sample-ratio mismatch). Fix the assignment first.",
    };
  }
  // A failed guardrail stops the treatment whatever latency says, even with too few latency samples.
  if (guardrail?.status === "failed") {
    return {
      decision: "do-not-ship",
      sentence: `Do not ship: the quality guardrail failed (${guardrail.description}).`,
    };
  }
  if (!latency) {
    return {
      decision: "inconclusive",
      sentence: `Inconclusive: not enough samples yet to judge ${label}${input.latencyReason ? ` (${input.latencyReason})` : ""}.`,
    };
  }
  const speed = `${whole(latency.relative)} ${isDown(latency) ? "faster" : "slower"} at ${label}`;
  const price = cost && `${whole(cost.relative)} ${isDown(cost) ? "cheaper" : "more expensive"} per 1k tokens`;
  if (!latency.isSignificant) {
    return {
      decision: "inconclusive",
      sentence: `Inconclusive: treatment looks ${speed} ${interval(latency)}, but the difference is within the noise. Keep collecting.`,
    };
  }
  const costSignificant = cost?.isSignificant ?? false;
  if (isDown(latency)) {
    if (cost && costSignificant && !isDown(cost)) {
      return {
        decision: "trade-off",
        sentence: `Trade-off: treatment is ${speed} ${interval(latency)} but ${price} ${interval(cost)}. Weigh them on the cost-versus-latency view.`,
      };
    }
    if (guardrail?.status === "unclear") {
      return {
        decision: "inconclusive",
        sentence: `Inconclusive: treatment is ${speed}, but the quality guardrail is not settled (${guardrail.description}). Keep collecting.`,
      };
    }
    const costNote = !cost
      ? ""
      : costSignificant
        ? ` and ${whole(cost.relative)} cheaper`
        : `; its cost per 1k tokens is within the noise (${signed(cost.relative).replace(".0 %", " %")})`;
    return { decision: "ship", sentence: `Treatment is ${speed}${costNote} — ship.` };
  }
  if (cost && costSignificant && isDown(cost)) {
    return {
      decision: "trade-off",
      sentence: `Trade-off: treatment is ${price} ${interval(cost)} but ${speed} ${interval(latency)}. Weigh them on the cost-versus-latency view.`,
    };
  }
  return { decision: "do-not-ship", sentence: `Do not ship: treatment is ${speed} ${interval(latency)}.` };
}
