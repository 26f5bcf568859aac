"use client";

import { formatPercent } from "@/lib/domain/format";
import { AttainmentRing } from "./lazy";

/**
 * Attainment as a half-ring. The scale starts at objective − 4 × error budget, so the part of
 * the range that matters (around the objective) fills the arc; the tick marks the objective.
 * The figure and the tick are drawn at once; the ring with the charts' code, after it loads.
 */
export function AttainmentGauge({ attainment, objective }: { attainment: number | null; objective: number }) {
  const min = Math.max(0, objective - 4 * (1 - objective));
  const span = 1 - min;
  const share = attainment === null ? 0 : Math.min(1, Math.max(0, (attainment - min) / span));
  const objectiveShare = (objective - min) / span;
  const colour = attainment === null ? "#94a3b8" : attainment >= objective ? "#16a34a" : "#dc2626";
  const angle = Math.PI * (1 - objectiveShare);
  return (
    <div
      className="relative h-28 w-52"
      role="img"
      aria-label={
        attainment === null
          ? "No data"
          : `Attainment ${formatPercent(attainment)} against an objective of ${formatPercent(objective)}`
      }
    >
      <AttainmentRing share={share} colour={colour} />
      <svg className="pointer-events-none absolute inset-0" viewBox="0 0 208 112" aria-hidden>
        <line
          x1={104 + 62 * Math.cos(angle)}
          y1={101 - 62 * Math.sin(angle)}
          x2={104 + 86 * Math.cos(angle)}
          y2={101 - 86 * Math.sin(angle)}
          stroke="#0f172a"
          strokeWidth={2}
          className="dark:stroke-white"
        />
      </svg>
      <p className="absolute inset-x-0 bottom-0 text-center text-lg font-semibold tabular-nums">
        {formatPercent(attainment)}
      </p>
    </div>
  );
}
