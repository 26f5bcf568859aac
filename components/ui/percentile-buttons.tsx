"use client";

import { Button } from "./primitives";

export const PERCENTILES = [
  [0.5, "p50"],
  [0.95, "p95"],
  [0.99, "p99"],
] as const;

/** p50 / p95 / p99 as toggle buttons; the pressed one is the view's. */
export function PercentileButtons({ value, onChange }: { value: number; onChange: (quantile: number) => void }) {
  return (
    <fieldset className="flex items-center gap-1" aria-label="Percentile">
      {PERCENTILES.map(([q, label]) => (
        <Button
          key={label}
          type="button"
          variant={q === value ? "primary" : "secondary"}
          aria-pressed={q === value}
          onClick={() => onChange(q)}
        >
          {label}
        </Button>
      ))}
    </fieldset>
  );
}
