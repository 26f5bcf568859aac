import { describe, expect, it } from "vitest";
import { growth, summarise, type HeapSnapshot } from "./heap-diff";

// A heap in V8's layout: each node is [type, name, self_size] here.
const heap = (nodes: [type: number, name: number, size: number][]): HeapSnapshot => ({
  snapshot: { meta: { node_fields: ["type", "name", "self_size"], node_types: [["hidden", "object", "string"]] } },
  nodes: nodes.flat(),
  strings: ["Listener", "EventTarget", "hello", "world"],
});

describe("heap snapshot diff", () => {
  it("sums self sizes per type and constructor, all strings as one kind", () => {
    const kinds = summarise(
      heap([
        [1, 0, 40],
        [1, 0, 24],
        [1, 1, 100],
        [2, 2, 16],
        [2, 3, 32],
      ]),
    );
    expect(kinds.get("object:Listener")).toEqual({ bytes: 64, count: 2 });
    expect(kinds.get("object:EventTarget")).toEqual({ bytes: 100, count: 1 });
    expect(kinds.get("string:(string)")).toEqual({ bytes: 48, count: 2 });
  });

  it("names the kinds that grew, the largest first, and the ones that shrank last", () => {
    const early = heap([
      [1, 0, 40],
      [1, 1, 100],
      [2, 2, 500],
    ]);
    const late = heap([
      [1, 0, 40],
      [1, 0, 40],
      [1, 0, 40],
      [1, 1, 100],
      [1, 1, 100],
      [2, 2, 16],
    ]);
    expect(growth(early, late)).toEqual([
      { kind: "object:EventTarget", bytes: 100, count: 1 },
      { kind: "object:Listener", bytes: 80, count: 2 },
      { kind: "string:(string)", bytes: -484, count: 0 },
    ]);
  });
});
