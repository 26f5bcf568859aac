import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { chatApi } from "@/prisma/seed-data";
import { testPoolSize } from "@/test/databases";
import { testUser } from "@/test/actors";
import { createService } from "./services";
import { getWaterfallForPage, waterfallPageQuery } from "./waterfall";

// The waterfall page asks for its timeline before the waterfall has answered, with the view the
// waterfall will show: what waterfallPageQuery says a link opens must be what the waterfall says.

const db = createDb(inject("databaseUrl"), testPoolSize());
afterAll(() => db.$disconnect());

describe(`the waterfall page's view, known before reading (${inject("databaseKind")})`, () => {
  it("is the view the waterfall answers with, for good links and bad ones", async () => {
    const slug = `wfp-${randomUUID().slice(0, 8)}`;
    await createService({ db, actor: testUser("lead"), input: { ...chatApi.service, slug, stages: chatApi.stages } });
    const now = 1_764_000_000;
    const links: [Record<string, unknown>, { quantile: number; window: string; at: number; valid: boolean }][] = [
      [{}, { quantile: 0.95, window: "5m", at: now, valid: true }],
      // A custom window is snapped to a round one (by hand: 7m → 5m, 50m → 1h).
      [
        { quantile: "p99", window: "7m", at: "1763990000" },
        { quantile: 0.99, window: "5m", at: 1_763_990_000, valid: true },
      ],
      [
        { quantile: "0.5", window: "50m" },
        { quantile: 0.5, window: "1h", at: now, valid: true },
      ],
      // A hand-edited link with a bad parameter opens the default view, live.
      [
        { quantile: "p42", window: "1h", at: "1763990000" },
        { quantile: 0.95, window: "5m", at: now, valid: false },
      ],
    ];
    for (const [query, expected] of links) {
      const resolved = waterfallPageQuery(null, query, now);
      expect({ quantile: resolved.quantile, window: resolved.window, at: resolved.at, valid: resolved.valid }).toEqual(
        expected,
      );
      const view = await getWaterfallForPage({ db, prom: null, slug, query: resolved.valid ? query : {}, now });
      expect({ quantile: view.quantile, window: view.window, at: view.at }).toEqual({
        quantile: resolved.quantile,
        window: resolved.window,
        at: resolved.at,
      });
    }
  });
});
