import type { MeanEstimate } from "./mean";
import { twoSidedZ } from "./normal";
import type { GuardrailStatus } from "./verdict";

// The quality guardrail as a non-inferiority test on the drop in mean quality (control −
// treatment), judged by its interval: passed when even the upper end of the drop is within the
// allowance, failed when even the lower end is beyond it, unclear in between.

export type Guardrail = {
  status: GuardrailStatus;
  /** control − treatment: positive is a drop. */
  drop: number;
  dropLower: number | null;
  dropUpper: number | null;
  maxDrop: number;
  description: string;
};

const points = (x: number) => `${x < 0 ? "−" : ""}${Math.abs(x * 100).toFixed(1)}`;

export function evaluateGuardrail(
  control: MeanEstimate,
  treatment: MeanEstimate,
  maxDrop: number,
  confidence = 0.95,
): Guardrail {
  const drop = control.mean - treatment.mean;
  const direction = `quality ${drop > 0 ? "fell" : "rose"} ${points(Math.abs(drop))} points`;
  const allowed = `at most ${points(maxDrop)} allowed`;
  if (control.standardError === null || treatment.standardError === null) {
    return {
      status: "unclear",
      drop,
      dropLower: null,
      dropUpper: null,
      maxDrop,
      description: `${direction} (its spread is unknown: too few values, or results stored before quality spreads were kept; upload them again), ${allowed}`,
    };
  }
  const half = twoSidedZ(confidence) * Math.hypot(control.standardError, treatment.standardError);
  const [dropLower, dropUpper] = [drop - half, drop + half];
  const status: GuardrailStatus = dropUpper <= maxDrop ? "passed" : dropLower > maxDrop ? "failed" : "unclear";
  return {
    status,
    drop,
    dropLower,
    dropUpper,
    maxDrop,
    description: `${direction} [drop ${points(dropLower)}, ${points(dropUpper)}], ${allowed}`,
  };
}
