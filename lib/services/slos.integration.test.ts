import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { rejection } from "@/test/rejection";
import { testPoolSize } from "@/test/databases";
import { createService } from "./services";
import { createSlo, deleteSlo, getSloStatuses, updateSlo } from "./slos";
import { testUser } from "@/test/actors";

const db = createDb(inject("databaseUrl"), testPoolSize());
const actor = testUser("lead");
afterAll(() => db.$disconnect());

const input = {
  name: "TTFT under 700 ms",
  source: { preset: "generic", metric: "llm_request_ttft_seconds", matchers: { service: "x" } },
  thresholdMs: 700,
  objective: 0.99,
};

describe(`SLO definitions (${inject("databaseKind")})`, () => {
  it("are created, updated with optimistic concurrency, and deleted", async () => {
    const slug = `slo-${randomUUID().slice(0, 8)}`;
    await createService({ db, actor, input: { slug, name: "S" } });
    const slo = await createSlo({ db, actor, slug, input });
    expect(slo).toMatchObject({ version: 1, windowDays: 28, thresholdMode: "snap" });
    expect((await rejection(createSlo({ db, actor, slug, input }))).code).toBe("CONFLICT");

    const updated = await updateSlo({ db, actor, slug, id: slo.id, input: { ...input, objective: 0.995, version: 1 } });
    expect(updated).toMatchObject({ version: 2, objective: 0.995 });
    const stale = await rejection(
      updateSlo({ db, actor, slug, id: slo.id, input: { ...input, objective: 0.9, version: 1 } }),
    );
    expect(stale.code).toBe("CONFLICT");
    expect(stale.message).toContain("now version 2");

    const invalid = await rejection(
      updateSlo({ db, actor, slug, id: slo.id, input: { ...input, objective: 1, version: 2 } }),
    );
    expect(invalid.fields).toEqual({ objective: "Objective must be below 1: an SLO of 100 % has no error budget" });

    const [status] = await getSloStatuses({ db, prom: null, slug });
    expect(status).toMatchObject({
      objective: 0.995,
      attainment: null,
      error: "Prometheus is not configured: set PROMETHEUS_URL.",
    });

    await deleteSlo({ db, actor, slug, id: slo.id });
    expect(await getSloStatuses({ db, prom: null, slug })).toEqual([]);
    expect((await rejection(deleteSlo({ db, actor, slug, id: slo.id }))).code).toBe("NOT_FOUND");
  });
});
