// Live views answer over a fixed set of windows. Any duration a URL asks for is snapped to the
// nearest of them (on a log scale: 7m is 5m, 8m is 10m), so a view is one of a few hundred cacheable
// questions however people or scripts type their links, and random windows cannot defeat the cache.

export const LIVE_WINDOWS = [
  "1m",
  "2m",
  "5m",
  "10m",
  "15m",
  "30m",
  "1h",
  "2h",
  "3h",
  "6h",
  "12h",
  "1d",
  "2d",
  "3d",
  "7d",
] as const;
export type LiveWindow = (typeof LIVE_WINDOWS)[number];

const UNIT_SECONDS = { m: 60, h: 3600, d: 86400 } as const;

export function windowSeconds(window: string): number {
  const match = /^([1-9][0-9]{0,4})(m|h|d)$/.exec(window);
  return match ? Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS] : Number.NaN;
}

/** The live window nearest to `seconds` on a log scale (ties go to the longer window). */
export function snapWindow(seconds: number): LiveWindow {
  let best: LiveWindow = LIVE_WINDOWS[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const window of LIVE_WINDOWS) {
    const distance = Math.abs(Math.log(windowSeconds(window) / seconds));
    if (distance <= bestDistance + 1e-12) {
      best = window;
      bestDistance = distance;
    }
  }
  return best;
}
