"use client";

import { Select } from "@/components/ui/primitives";

export const INSIGHT_WINDOWS = ["1m", "5m", "15m", "1h", "6h", "1d"];

/** The window a live view reads over; the current one stays selectable even when it is not a preset. */
export function WindowSelect({ value, onChange }: { value: string; onChange: (window: string) => void }) {
  const options = INSIGHT_WINDOWS.includes(value) ? INSIGHT_WINDOWS : [value, ...INSIGHT_WINDOWS];
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="font-medium">Window</span>
      <Select aria-label="Window" value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((w) => (
          <option key={w} value={w}>
            last {w}
          </option>
        ))}
      </Select>
    </label>
  );
}
