import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "./create";
import { databaseNow, findRuleFileSync, writeRuleFileOnce } from "./rule-file";

// The rule file shared by several instances: writes never overlap (two clients, two connection
// pools, as two instances have), and a write from an older snapshot never replaces a newer one.

const url = inject("databaseUrl");
const isEmbedded = inject("databaseKind") === "embedded";
const a = createDb(url, isEmbedded ? 1 : 2);
const b = createDb(url, isEmbedded ? 1 : 2);
afterAll(async () => {
  await a.$disconnect();
  await b.$disconnect();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`the shared rule file's lock (${inject("databaseKind")})`, () => {
  it("serialises writes from two clients: no two ever overlap", async () => {
    const intervals: { who: string; from: number; to: number }[] = [];
    const write = (who: string) => async () => {
      const from = performance.now();
      await pause(60);
      intervals.push({ who, from, to: performance.now() });
      return { ok: true as const, checksum: "0".repeat(64) };
    };
    const attempts: Promise<boolean>[] = [];
    for (let i = 0; i < 4; i++)
      for (const [name, db] of [
        ["a", a],
        ["b", b],
      ] as const) {
        const snapshotAt = await databaseNow(db);
        attempts.push(writeRuleFileOnce(db, { snapshotAt, instance: `${name}${i}` }, write(`${name}${i}`)));
      }
    const wrote = await Promise.all(attempts);
    expect(wrote.filter(Boolean).length).toBe(intervals.length);
    expect(intervals.length).toBeGreaterThanOrEqual(2);
    const sorted = [...intervals].sort((x, y) => x.from - y.from);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i]!.from, `${sorted[i]!.who} started inside ${sorted[i - 1]!.who}`).toBeGreaterThanOrEqual(
        sorted[i - 1]!.to,
      );
  });

  it("skips a write whose snapshot is older than the file's: the newest state wins", async () => {
    const older = await databaseNow(a);
    await pause(5);
    const newer = await databaseNow(b);
    const ok = async () => ({ ok: true as const, checksum: "1".repeat(64) });
    expect(await writeRuleFileOnce(b, { snapshotAt: newer, instance: "newer" }, ok)).toBe(true);
    let ranOlder = false;
    expect(
      await writeRuleFileOnce(a, { snapshotAt: older, instance: "older" }, async () => {
        ranOlder = true;
        return ok();
      }),
    ).toBe(false);
    expect(ranOlder).toBe(false);
    expect(await findRuleFileSync(a)).toMatchObject({ instance: "newer", ok: true });
  });
});
