import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countKinds, groupAnnotations, pageOf, sliceFor } from "./annotation-groups";

// A busy hour: 14:00 to 15:00 UTC on 2026-11-25, a deploy every 2 minutes from 14:00 (30) and a
// note every 2 minutes from 14:01 (30), interleaved.
const H14 = Date.UTC(2026, 10, 25, 14, 0, 0) / 1000;
const busyHour = Array.from({ length: 60 }, (_, i) => ({
  id: `a${String(i).padStart(2, "0")}`,
  at: H14 + i * 60,
  kind: i % 2 === 0 ? "deploy" : "note",
}));

describe("sliceFor", () => {
  it.each([
    [900, 120],
    [3600, 600],
    [10_800, 1800],
    [86_400, 10_800],
    [604_800, 86_400],
  ])("a range of %i s groups by %i s", (span, slice) => {
    expect(sliceFor(span)).toBe(slice);
  });
});

describe("groupAnnotations", () => {
  it("turns a busy hour of sixty into twelve groups, newest first, by kind and 10-minute slice", () => {
    const groups = groupAnnotations(busyHour, sliceFor(3600));
    // By hand: six 10-minute slices (14:00, 14:10 … 14:50), each with 5 deploys (even minutes)
    // and 5 notes (odd minutes). The newest annotation is the note at 14:59, so its slice's notes
    // come first, then that slice's deploys (newest at 14:58), then 14:40's notes (14:49)…
    expect(groups).toHaveLength(12);
    expect(groups.map((g) => `${g.kind} ${g.items.length}`)).toEqual(
      Array.from({ length: 6 }, () => ["note 5", "deploy 5"]).flat(),
    );
    const [notes, deploys] = groups;
    expect(notes!.from).toBe(H14 + 51 * 60);
    expect(notes!.to).toBe(H14 + 59 * 60);
    expect(notes!.items.map((a) => a.id)).toEqual(["a59", "a57", "a55", "a53", "a51"]);
    expect(deploys!.from).toBe(H14 + 50 * 60);
    expect(deploys!.to).toBe(H14 + 58 * 60);
    expect(groups.at(-1)!.kind).toBe("deploy");
    expect(groups.at(-1)!.items.at(-1)!.id).toBe("a00");
  });

  it("keeps one kind when asked", () => {
    const groups = groupAnnotations(busyHour, 600, "deploy");
    expect(groups.map((g) => g.items.length)).toEqual([5, 5, 5, 5, 5, 5]);
    expect(groups.every((g) => g.kind === "deploy")).toBe(true);
    expect(groupAnnotations(busyHour, 600, "alert")).toEqual([]);
  });

  it("loses nothing, orders every group and item newest first, and never mixes kinds or slices", () => {
    const annotation = fc.record({
      id: fc.uuid(),
      at: fc.integer({ min: H14 - 86_400, max: H14 + 86_400 }),
      kind: fc.constantFrom("deploy", "note", "budget", "slo", "alert"),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(annotation, { selector: (a) => a.id, maxLength: 80 }),
        fc.constantFrom(60, 600, 3600),
        (annotations, slice) => {
          const groups = groupAnnotations(annotations, slice);
          const flat = groups.flatMap((g) => g.items);
          expect(flat.map((a) => a.id).sort()).toEqual(annotations.map((a) => a.id).sort());
          for (let i = 1; i < groups.length; i++) expect(groups[i]!.to).toBeLessThanOrEqual(groups[i - 1]!.to);
          for (const g of groups) {
            expect(g.to).toBe(g.items[0]!.at);
            expect(g.from).toBe(g.items.at(-1)!.at);
            for (let i = 1; i < g.items.length; i++) expect(g.items[i]!.at).toBeLessThanOrEqual(g.items[i - 1]!.at);
            expect(new Set(g.items.map((a) => `${a.kind}/${Math.floor(a.at / slice)}`)).size).toBe(1);
          }
          expect(new Set(groups.map((g) => g.key)).size).toBe(groups.length);
        },
      ),
    );
  });
});

describe("countKinds and pageOf", () => {
  it("counts kinds most first", () => {
    expect(countKinds([...busyHour, { id: "x", at: H14, kind: "alert" }])).toEqual([
      { kind: "deploy", count: 30 },
      { kind: "note", count: 30 },
      { kind: "alert", count: 1 },
    ]);
  });

  it("shows ten at a time and says how many are left", () => {
    const groups = groupAnnotations(busyHour, 600);
    expect(pageOf(groups, 1, 10).shown).toHaveLength(10);
    expect(pageOf(groups, 1, 10).left).toBe(2);
    expect(pageOf(groups, 2, 10)).toEqual({ shown: groups, left: 0 });
    expect(pageOf([], 1, 10)).toEqual({ shown: [], left: 0 });
  });
});
