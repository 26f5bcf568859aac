import { DDSketch } from "@datadog/sketches-js";
import type { RankSource } from "./quantile-ci";

// Per-variant latency samples with bounded memory: exact raw samples up to RAW_LIMIT (answers
// at small n are exact order statistics), and beyond that a DDSketch, which guarantees every
// quantile within RELATIVE_ACCURACY of the true value and merges across uploads and sources.
// DDSketch (Datadog's reference implementation) was chosen over t-digest for that stated
// relative-error guarantee, which is the right kind of error bound for latencies.

export const RAW_LIMIT = 100_000;
export const RELATIVE_ACCURACY = 0.005;

type Mapping = { key(value: number): number; value(key: number): number; _multiplier?: number; _offset?: number };

/**
 * The sketch's key function, inlined when the mapping is the logarithmic one (key = ⌈log₂(v)·m⌉ + o)
 * and checked against the library's own on sample values; otherwise the library's method.
 */
function keyFunction(mapping: Mapping): (value: number) => number {
  const { _multiplier: m, _offset: o } = mapping;
  if (typeof m === "number" && typeof o === "number") {
    const inline = (value: number) => Math.ceil(Math.log2(value) * m) + o;
    const probes = [1e-3, 0.37, 1, 7.5, 123.456, 9999.9, 3.6e6];
    if (probes.every((v) => inline(v) === mapping.key(v))) return inline;
  }
  return (value) => mapping.key(value);
}

// The bin of a double from its bits: for each binary exponent, the 2^CELL_BITS cells of its top
// mantissa bits each span less than a tenth of a bin (gamma = 1.01), so a cell holds at most two
// bins: the lower one up to a threshold, the next above it. Values within rounding of the
// threshold go to the mapping itself, so every value lands in the bin the sketch would give it.
const CELL_BITS = 10;
const CELL_MASK = (1 << CELL_BITS) - 1;
const MANTISSA_SHIFT = 20 - CELL_BITS;

type Cells = { key: Int32Array; threshold: Float64Array; margin: Float64Array };
type BinTable = { tables: (Cells | null | undefined)[]; build(exponent: number): Cells | null };

const binTables = new Map<string, BinTable>();

function binTableFor(mapping: Mapping): BinTable | null {
  const { _multiplier: m, _offset: o } = mapping;
  if (typeof m !== "number" || typeof o !== "number") return null;
  const id = `${m}/${o}`;
  let table = binTables.get(id);
  if (!table) {
    const tables: (Cells | null | undefined)[] = new Array(2048);
    const build = (exponent: number): Cells | null => {
      // Subnormals, infinities and NaN have no such layout: the mapping decides them.
      if (exponent === 0 || exponent === 2047) return (tables[exponent] = null);
      const cells: Cells = {
        key: new Int32Array(1 << CELL_BITS),
        threshold: new Float64Array(1 << CELL_BITS),
        margin: new Float64Array(1 << CELL_BITS),
      };
      for (let cell = 0; cell <= CELL_MASK; cell++) {
        const low = 2 ** (exponent - 1023) * (1 + cell / (1 << CELL_BITS));
        const key = Math.ceil(Math.log2(low) * m) + o;
        const threshold = 2 ** ((key - o) / m);
        cells.key[cell] = key;
        cells.threshold[cell] = threshold;
        cells.margin[cell] = threshold * 1e-12;
      }
      return (tables[exponent] = cells);
    };
    binTables.set(id, (table = { tables, build }));
  }
  return table;
}

// Feeding a DDSketch one value at a time costs ~40 ns a value. Values are first counted per
// sketch bin (the sketch's own key mapping) in a flat array and handed over in bulk, bin by bin,
// with their counts as weights: the same bins, a fraction of the cost.
const PENDING_SIZE = 1 << 13;
const PENDING_OFFSET = PENDING_SIZE >> 1;

export class LatencySamples {
  private raw: Float64Array | null = new Float64Array(1024);
  private rawCount = 0;
  private sketchStore: DDSketch | null = null;
  private pending: Float64Array | null = null;
  private hasPending = false;
  private keyOf: ((value: number) => number) | null = null;
  private bins: BinTable | null = null;
  count = 0;
  sum = 0;

  add(value: number): void {
    this.count++;
    this.sum += value;
    if (this.raw) {
      if (this.rawCount < RAW_LIMIT) {
        if (this.rawCount === this.raw.length) {
          const grown = new Float64Array(Math.min(RAW_LIMIT, this.raw.length * 2));
          grown.set(this.raw);
          this.raw = grown;
        }
        this.raw[this.rawCount++] = value;
        return;
      }
      this.spill();
    }
    const key = value > 0 ? this.keyOf!(value) + PENDING_OFFSET : -1;
    if (key >= 0 && key < PENDING_SIZE) {
      this.pending![key]!++;
      this.hasPending = true;
    } else {
      this.sketchStore!.accept(value);
    }
  }

  /** Adds many samples at once: the same as add() for each, with the per-call work hoisted. */
  addMany(values: ArrayLike<number>): void {
    let i = 0;
    while (i < values.length && this.raw) this.add(values[i++]!);
    if (i >= values.length) return;
    if (values instanceof Float64Array && this.bins) {
      this.addBinned(values.subarray(i));
      return;
    }
    const pending = this.pending!;
    const keyOf = this.keyOf!;
    let sum = 0;
    let counted = 0;
    for (; i < values.length; i++) {
      const value = values[i]!;
      sum += value;
      counted++;
      const key = value > 0 ? keyOf(value) + PENDING_OFFSET : -1;
      if (key >= 0 && key < PENDING_SIZE) pending[key]!++;
      else this.sketchStore!.accept(value);
    }
    this.count += counted;
    this.sum += sum;
    this.hasPending = true;
  }

  /**
   * addMany for doubles, without a logarithm per value: the bin is read from the value's exponent
   * and top mantissa bits through a table (see BinTable), the same bin the sketch's mapping gives.
   */
  private addBinned(values: Float64Array): void {
    const pending = this.pending!;
    const keyOf = this.keyOf!;
    const bins = this.bins!;
    const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
    let sum = 0;
    for (let i = 0; i < values.length; i++) {
      const value = values[i]!;
      sum += value;
      let key: number;
      if (value > 0) {
        const high = words[2 * i + 1]!;
        const exponent = high >>> 20;
        const table = bins.tables[exponent] ?? bins.build(exponent);
        if (table) {
          const cell = (high >>> MANTISSA_SHIFT) & CELL_MASK;
          const over = value - table.threshold[cell]!;
          key =
            over > table.margin[cell]!
              ? table.key[cell]! + 1
              : over < -table.margin[cell]!
                ? table.key[cell]!
                : keyOf(value); // within rounding of a bin's edge: the mapping decides
        } else key = keyOf(value);
        key += PENDING_OFFSET;
      } else key = -1;
      if (key >= 0 && key < PENDING_SIZE) pending[key]!++;
      else this.sketchStore!.accept(value);
    }
    this.count += values.length;
    this.sum += sum;
    this.hasPending = true;
  }

  /**
   * Adds n values spread evenly over [lo, hi]: lo + (hi − lo)(k + ½)/n for k = 0…n−1, as add() would
   * each, without a step per value once they go to the sketch. The values are in order, so those
   * that share a sketch bin are a run; each run's end is guessed from the bin's upper bound, checked
   * with the sketch's own key function (searched for if the guess is off) and added with its length
   * as weight. The work grows with the number of bins the range covers (O(log n)), not with n.
   */
  addSpread(lo: number, hi: number, n: number): void {
    if (!(n > 0)) return;
    n = Math.round(n);
    // Beyond 2^53, k + 1 is k again: the walk below would never end.
    if (!Number.isSafeInteger(n)) throw new RangeError(`Cannot spread ${n} values: more than 2^53.`);
    const width = Math.max(0, hi - lo);
    const at = (k: number) => lo + (width * (k + 0.5)) / n;
    if (this.raw) {
      if (this.rawCount + n <= RAW_LIMIT) {
        for (let k = 0; k < n; k++) this.add(at(k));
        return;
      }
      this.spill();
    }
    const sketch = this.sketchStore!;
    const pending = this.pending!;
    const keyOf = this.keyOf!;
    const { _multiplier: m, _offset: o } = (sketch as unknown as { mapping: Mapping }).mapping;
    const logarithmic = typeof m === "number" && typeof o === "number";
    // One ordered id per bin: negative values' bins, then zero, then positive values' bins.
    const POSITIVE = 2 ** 40;
    const binOf = (value: number) => (value > 0 ? POSITIVE + keyOf(value) : value < 0 ? -keyOf(-value) : POSITIVE / 2);

    for (let first = 0; first < n;) {
      const value = at(first);
      const bin = binOf(value);
      const inBin = (k: number) => binOf(at(k)) === bin;
      // The last k whose value is at most the bin's upper bound, 2^((key − offset)/multiplier).
      let guess = first;
      if (value > 0 && logarithmic && width > 0) {
        const upper = 2 ** ((bin - POSITIVE - o) / m);
        guess = Math.min(n - 1, Math.max(first, Math.floor(((upper - lo) * n) / width - 0.5)));
      }
      // inside is in the bin, outside is not (or is n); the run ends between them.
      let inside = first;
      let outside = n;
      if (guess > first) {
        if (inBin(guess)) inside = guess;
        else {
          outside = guess;
          for (let step = 1; outside - step > inside; step *= 2) {
            if (inBin(outside - step)) {
              inside = outside - step;
              break;
            }
            outside -= step;
          }
        }
      }
      if (outside === n)
        for (let step = 1; inside + step < n; step *= 2) {
          if (!inBin(inside + step)) {
            outside = inside + step;
            break;
          }
          inside += step;
        }
      while (outside - inside > 1) {
        const middle = Math.floor((inside + outside) / 2);
        if (inBin(middle)) inside = middle;
        else outside = middle;
      }
      const weight = inside - first + 1;
      const key = value > 0 ? bin - POSITIVE + PENDING_OFFSET : -1;
      if (key >= 0 && key < PENDING_SIZE) {
        pending[key]! += weight;
        this.hasPending = true;
      } else sketch.accept(value, weight);
      first = inside + 1;
    }
    this.count += n;
    this.sum += n * lo + (width * n) / 2; // Σ at(k)
  }

  /** The sketch with every pending count handed over. */
  private get sketch(): DDSketch | null {
    if (this.hasPending && this.sketchStore && this.pending) {
      const mapping = (this.sketchStore as unknown as { mapping: Mapping }).mapping;
      for (let i = 0; i < PENDING_SIZE; i++) {
        const count = this.pending[i]!;
        if (count > 0) {
          this.sketchStore.accept(mapping.value(i - PENDING_OFFSET), count);
          this.pending[i] = 0;
        }
      }
      this.hasPending = false;
    }
    return this.sketchStore;
  }

  private set sketch(sketch: DDSketch | null) {
    this.sketchStore = sketch;
    this.pending = sketch ? new Float64Array(PENDING_SIZE) : null;
    this.keyOf = sketch ? keyFunction((sketch as unknown as { mapping: Mapping }).mapping) : null;
    this.bins = sketch ? binTableFor((sketch as unknown as { mapping: Mapping }).mapping) : null;
    this.hasPending = false;
  }

  /** Moves the raw samples into a sketch once there are too many to keep. */
  private spill(): void {
    const sketch = new DDSketch({ relativeAccuracy: RELATIVE_ACCURACY });
    for (let i = 0; i < this.rawCount; i++) sketch.accept(this.raw![i]!);
    this.sketch = sketch;
    this.raw = null;
    this.rawCount = 0;
  }

  merge(other: LatencySamples): void {
    if (other.raw) {
      for (let i = 0; i < other.rawCount; i++) this.add(other.raw[i]!);
      return;
    }
    if (this.raw) this.spill();
    // A sketch read back from protobuf carries its mapping's gamma to the last bit or so, which
    // the library then refuses to merge with a fresh one; read both the same way first.
    if (!this.sketch!.mergeable(other.sketch!)) {
      this.sketch = DDSketch.fromProto(this.sketch!.toProto()) as DDSketch;
      this.sketch.merge(DDSketch.fromProto(other.sketch!.toProto()) as DDSketch);
    } else {
      this.sketch!.merge(other.sketch!);
    }
    this.count += other.count;
    this.sum += other.sum;
  }

  /** Compact bytes: a kind byte, count and sum, then the raw samples or the sketch's protobuf. */
  toBytes(): Uint8Array {
    const payload = this.raw ? new Uint8Array(this.raw.buffer, 0, this.rawCount * 8).slice() : this.sketch!.toProto();
    const out = new Uint8Array(17 + payload.length);
    const view = new DataView(out.buffer);
    view.setUint8(0, this.raw ? 0 : 1);
    view.setFloat64(1, this.count, true);
    view.setFloat64(9, this.sum, true);
    out.set(payload, 17);
    return out;
  }

  static fromBytes(bytes: Uint8Array): LatencySamples {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const samples = new LatencySamples();
    const payload = bytes.slice(17);
    if (view.getUint8(0) === 0) {
      const values = new Float64Array(payload.buffer, payload.byteOffset, payload.byteLength / 8);
      for (const v of values) samples.add(v);
      return samples;
    }
    samples.raw = null;
    samples.sketch = DDSketch.fromProto(payload) as DDSketch;
    samples.count = view.getFloat64(1, true);
    samples.sum = view.getFloat64(9, true);
    return samples;
  }

  get isExact(): boolean {
    return this.raw !== null;
  }

  get mean(): number | null {
    return this.count ? this.sum / this.count : null;
  }

  /** Order statistics: exact from sorted raw samples, or from the sketch (within its relative accuracy). */
  ranks(): RankSource {
    if (this.raw) {
      const sorted = this.raw.slice(0, this.rawCount).sort();
      return { n: sorted.length, valueAtRank: (rank) => sorted[rank - 1]! };
    }
    const sketch = this.sketch!;
    const n = this.count;
    return { n, valueAtRank: (rank) => sketch.getValueAtQuantile(n === 1 ? 0 : (rank - 1) / (n - 1)) };
  }
}
