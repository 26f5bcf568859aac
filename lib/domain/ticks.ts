// Round axis ticks: 0, 100, 200 rather than 101.3, 451.3. Steps are 1, 2, 2.5 or 5 × 10^k.

const STEPS = [1, 2, 2.5, 5, 10];

export function niceStep(span: number, maxTicks: number): number {
  if (!(span > 0)) return 1;
  const rough = span / Math.max(1, maxTicks - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  return STEPS.map((s) => s * magnitude).find((step) => step >= rough * (1 - 1e-9))!;
}

/** A domain widened to round numbers and the ticks inside it, at most `maxTicks` of them. */
export function niceScale(min: number, max: number, maxTicks = 6): { domain: [number, number]; ticks: number[] } {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { domain: [0, 1], ticks: [0, 1] };
  // A span too small to divide (one value, or float noise) is widened to include 0.
  if (max - min <= 1e-9 * Math.max(1, Math.abs(min), Math.abs(max))) {
    const nearZero = Math.abs(min) < 1e-9 && Math.abs(max) < 1e-9;
    if (nearZero) [min, max] = [min < 0 ? -1 : 0, max > 0 || min >= 0 ? 1 : 0];
    else [min, max] = [Math.min(0, min), Math.max(0, max)];
  }
  let step = niceStep(max - min, maxTicks);
  let [lo, hi] = bounds(min, max, step);
  while ((hi - lo) / step + 1 > maxTicks) {
    step = niceStep(step * 1.0001 * (maxTicks - 1), maxTicks);
    [lo, hi] = bounds(min, max, step);
  }
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + (step % 1 === 0.5 || step % 1 === 0.25 ? 2 : 0));
  const ticks: number[] = [];
  for (let t = lo; t <= hi + step / 2; t += step) ticks.push(Number(t.toFixed(decimals + 2)));
  return { domain: [lo, hi], ticks };
}

/**
 * The multiples of `step` around [min, max]. Neither the quotient nor the product is exact
 * in binary (-1638400000 × 1e-5 = -16383.999999999998), so a quotient within float noise of
 * a whole number counts as that number, each bound is rounded to 15 significant digits, and
 * a bound that rounding moved inside the data is moved out by a step.
 */
function bounds(min: number, max: number, step: number): [number, number] {
  const round = (x: number) => Number(x.toPrecision(15));
  const multiple = (x: number, direction: (q: number) => number) => {
    const q = x / step;
    const nearest = Math.round(q);
    return Math.abs(q - nearest) <= 1e-9 * Math.max(1, Math.abs(q)) ? nearest : direction(q);
  };
  let lo = round(multiple(min, Math.floor) * step);
  let hi = round(multiple(max, Math.ceil) * step);
  if (lo > min) lo = round(lo - step);
  if (hi < max) hi = round(hi + step);
  return [lo, hi];
}
