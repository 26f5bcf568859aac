// The sentence a PM reads: ship, do not ship, or not yet, and why, in plain words.

export type VerdictInput = {
  srmMismatch: boolean;
  /** Treatment vs control at the judged percentile; null when a side has too few samples. */
  latency: { percentile: string; relative: number; isSignificant: boolean } | null;
  /** Cost per 1k tokens, relative change; null when not measured. */
  cost: { relative: number; isSignificant: boolean } | null;
  /** Quality drop beyond the allowed amount fails the guardrail. */
  guardrail: { passed: boolean; description: string } | null;
};

export type Verdict = { decision: "ship" | "do-not-ship" | "inconclusive" | "no-verdict"; sentence: string };

const percent = (relative: number) => `${Math.round(Math.abs(relative) * 100)} %`;

export function verdictOf(input: VerdictInput): Verdict {
  if (input.srmMismatch) {
    return {
      decision: "no-verdict",
      sentence:
        "No verdict: the variants' sample counts do not match their traffic weights (sample-ratio mismatch). Fix the assignment first.",
    };
  }
  if (!input.latency)
    return { decision: "inconclusive", sentence: "Inconclusive: not enough samples yet to judge latency." };
  if (input.guardrail && !input.guardrail.passed) {
    return {
      decision: "do-not-ship",
      sentence: `Do not ship: the quality guardrail failed (${input.guardrail.description}).`,
    };
  }
  const { latency, cost } = input;
  const speed = latency.relative < 0 ? `${percent(latency.relative)} faster` : `${percent(latency.relative)} slower`;
  const price = cost
    ? cost.relative < 0
      ? ` and ${percent(cost.relative)} cheaper`
      : cost.relative > 0
        ? ` and ${percent(cost.relative)} more expensive`
        : " at the same cost"
    : "";
  const costWorse = cost !== null && cost.relative > 0 && cost.isSignificant;
  if (!latency.isSignificant) {
    return {
      decision: "inconclusive",
      sentence: `Inconclusive: treatment looks ${speed} at ${latency.percentile}${price}, but the difference is within the noise. Keep collecting.`,
    };
  }
  if (latency.relative < 0 && !costWorse)
    return { decision: "ship", sentence: `Treatment is ${speed} at ${latency.percentile}${price} — ship.` };
  if (latency.relative < 0)
    return {
      decision: "inconclusive",
      sentence: `Treatment is ${speed} at ${latency.percentile}${price}: a trade-off to decide on the cost-versus-latency view.`,
    };
  return { decision: "do-not-ship", sentence: `Do not ship: treatment is ${speed} at ${latency.percentile}${price}.` };
}
