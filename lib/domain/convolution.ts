import FFT from "fft.js";

// The convolution of two non-negative mass vectors (pmfs on one grid), with a bound on how far the
// computed masses may be from the exact ones. Short vectors are convolved directly (exact up to
// the rounding of each sum, which the caller's renormalisation absorbs); long ones through
// fft.js's real transform, O(n log n) instead of O(n·m). A floating-point FFT is off by up to
// ~log₂N·ε·‖a‖₂‖b‖₂ in every entry: round-off is clamped (negatives, and values no larger than
// that noise floor, become 0, so the CDF stays monotone and the support does not fill with
// noise), the total is set back to Σa·Σb, and `error` bounds the L1 distance of the result from
// the exact convolution, for the caller's accounting.

/** A transform and its work arrays per size, reused (building the table costs more than a run). */
type Transform = { fft: FFT; padded: Float64Array; fa: number[]; fb: number[] };
const transforms = new Map<number, Transform>();
function transformOf(size: number): Transform {
  let t = transforms.get(size);
  if (!t) {
    const fft = new FFT(size);
    t = { fft, padded: new Float64Array(size), fa: fft.createComplexArray(), fb: fft.createComplexArray() };
    transforms.set(size, t);
  }
  return t;
}

export function convolveDirect(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) {
    const ai = a[i]!;
    if (ai === 0) continue;
    for (let j = 0; j < b.length; j++) out[i + j]! += ai * b[j]!;
  }
  return out;
}

function norm2(v: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  return Math.sqrt(sum);
}

function total(v: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]!;
  return sum;
}

/**
 * a ∗ b for non-negative a and b. `error` bounds Σ_k |result_k − exact_k| (0 for the direct sum,
 * whose only rounding is that of each addition, far below the FFT's). By default the FFT is used
 * when the direct sum's n·m multiply-adds exceed the transforms' ~N·log₂N (measured here: about
 * as costly per unit); `method` forces one, for tests.
 */
export function convolve(
  a: Float64Array,
  b: Float64Array,
  method: "auto" | "direct" | "fft" = "auto",
): { p: Float64Array; error: number } {
  const length = a.length + b.length - 1;
  let size = 4;
  while (size < length) size *= 2;
  if (method === "direct" || (method === "auto" && a.length * b.length <= size * Math.log2(size)))
    return { p: convolveDirect(a, b), error: 0 };
  const { fft, padded, fa, fb } = transformOf(size);
  padded.fill(0);
  padded.set(a);
  fft.realTransform(fa, padded);
  padded.fill(0);
  padded.set(b);
  fft.realTransform(fb, padded);
  // realTransform fills bins 0…N/2; the product's other half is their mirror (a real result).
  const half = size / 2;
  for (let k = 0; k <= half; k++) {
    const [ar, ai, br, bi] = [fa[2 * k]!, fa[2 * k + 1]!, fb[2 * k]!, fb[2 * k + 1]!];
    fa[2 * k] = ar * br - ai * bi;
    fa[2 * k + 1] = ar * bi + ai * br;
  }
  for (let k = half + 1; k < size; k++) {
    fa[2 * k] = fa[2 * (size - k)]!;
    fa[2 * k + 1] = -fa[2 * (size - k) + 1]!;
  }
  fft.inverseTransform(fb, fa);
  // Every entry is within `floor` of the exact one (a generous form of the FFT's known bound:
  // three transforms of log₂N radix steps, each off by a few ε, on inputs of these 2-norms).
  // Plus the subnormal range's own spacing (each of the ~N·log₂N operations may round to it), or
  // vectors near 1e-300 would claim an error of 0 that their underflow does not keep.
  const floor = 16 * Math.log2(size) * (Number.EPSILON * norm2(a) * norm2(b) + size * Number.MIN_VALUE);
  const p = new Float64Array(length);
  let sum = 0;
  for (let k = 0; k < length; k++) {
    const value = fb[2 * k]!;
    // Exact ≥ 0: a value within the noise floor may as well be 0 (off by at most 2·floor).
    p[k] = value > floor ? value : 0;
    sum += p[k]!;
  }
  const exact = total(a) * total(b);
  if (sum > 0) for (let k = 0; k < length; k++) p[k]! *= exact / sum;
  // Clamping leaves each entry within 2·floor of the exact one; rescaling moves the total by
  // |sum − exact| ≤ that sum again.
  return { p, error: 4 * length * floor };
}
