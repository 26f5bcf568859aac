// What every bench measures with: the median of repeated timings, and one timing.

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Milliseconds `run` takes, from its start to its settling. */
export async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** One figure of `npm run bench`: its value, its goal, and whether it met it. */
export type Row = { name: string; value: string; target: string; met: boolean };
