// Names what grew between two V8 heap snapshots (the load bench writes them at minutes 2 and 9
// with BENCH_HEAP_SNAPSHOTS=1): each kind of object — its type and constructor — with the bytes
// and count it gained, largest first. Usage: npx tsx bench/heap-diff.ts EARLY.heapsnapshot LATE.heapsnapshot
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** The part of V8's .heapsnapshot format this reads: nodes as a flat array of fields. */
export type HeapSnapshot = {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
};

export type Growth = { kind: string; bytes: number; count: number };

const STRING_TYPES = new Set(["string", "concatenated string", "sliced string"]);

/** Self size and count of every kind of object: "type:constructor" (strings as one kind). */
export function summarise(heap: HeapSnapshot): Map<string, { bytes: number; count: number }> {
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const kinds = new Map<string, { bytes: number; count: number }>();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const type = types[heap.nodes[i + typeAt]!] ?? "?";
    const name = STRING_TYPES.has(type) ? "(string)" : (heap.strings[heap.nodes[i + nameAt]!] ?? "").slice(0, 80);
    const kind = `${type}:${name}`;
    const entry = kinds.get(kind) ?? { bytes: 0, count: 0 };
    entry.bytes += heap.nodes[i + sizeAt]!;
    entry.count += 1;
    kinds.set(kind, entry);
  }
  return kinds;
}

/** What each kind gained from `early` to `late`, the largest growth in bytes first. */
export function growth(early: HeapSnapshot, late: HeapSnapshot): Growth[] {
  const before = summarise(early);
  return [...summarise(late)]
    .map(([kind, after]) => {
      const was = before.get(kind) ?? { bytes: 0, count: 0 };
      return { kind, bytes: after.bytes - was.bytes, count: after.count - was.count };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [earlyFile, lateFile] = process.argv.slice(2);
  if (!earlyFile || !lateFile) {
    console.error("Usage: npx tsx bench/heap-diff.ts EARLY.heapsnapshot LATE.heapsnapshot");
    process.exit(2);
  }
  const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as HeapSnapshot;
  const rows = growth(read(earlyFile), read(lateFile));
  const total = rows.reduce((sum, r) => sum + r.bytes, 0);
  console.log(`Heap grew by ${(total / 2 ** 20).toFixed(1)} MB; the kinds that grew most:`);
  for (const r of rows.slice(0, 30))
    console.log(`${(r.bytes / 1024).toFixed(0).padStart(9)} KiB ${String(r.count).padStart(8)} × ${r.kind}`);
}
