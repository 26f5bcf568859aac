import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { chatApi } from "@/prisma/seed-data";
import { createDb } from "@/lib/db/create";
import { rejection } from "@/test/rejection";
import { AppError } from "@/lib/errors";
import { testPoolSize } from "@/test/databases";
import { getBudget, listRevisions, restoreRevision, saveBudget } from "./budgets";
import { createService, listServices } from "./services";
import { testUser } from "@/test/actors";

const db = createDb(inject("databaseUrl"), testPoolSize());
const alice = testUser("alice");
const bob = testUser("bob");
afterAll(() => db.$disconnect());

const uniqueSlug = () => `svc-${randomUUID().slice(0, 8)}`;

async function newChatService() {
  const slug = uniqueSlug();
  await createService({ db, actor: alice, input: { ...chatApi.service, slug, stages: chatApi.stages } });
  return slug;
}

describe(`budgets (${inject("databaseKind")})`, () => {
  it("creates a service with its budget at version 1 and lists it with its margin", async () => {
    const slug = await newChatService();
    const listed = (await listServices({ db })).find((s) => s.slug === slug);
    expect(listed).toMatchObject({
      target: "TTFT p95 < 700 ms",
      version: 1,
      stackedMs: 660,
      marginMs: 40,
      stageCount: 8,
      componentCount: 10,
    });
    const budget = await getBudget({ db, slug });
    expect(budget.stages).toEqual(chatApi.stages);
    const revisions = await listRevisions({ db, slug, viewer: alice });
    expect(revisions).toMatchObject([{ version: 1, author: "alice@example.test" }]);
  });

  it("refuses a second service with the same slug", async () => {
    const slug = await newChatService();
    const error = await rejection(createService({ db, actor: bob, input: { slug, name: "Again" } }));
    expect(error).toMatchObject({ code: "CONFLICT", fields: { slug: "This slug is taken" } });
  });

  it("saves a new version with a readable diff in the history", async () => {
    const slug = await newChatService();
    const budget = await getBudget({ db, slug });
    budget.stages[4]!.components[1]!.budgetMs.p95 = 100;
    const saved = await saveBudget({ db, actor: bob, slug, input: { ...budget, message: "Faster reranker" } });
    expect(saved).toMatchObject({ version: 2, updatedBy: "bob@example.test" });
    const [latest] = await listRevisions({ db, slug, viewer: alice });
    expect(latest).toMatchObject({ version: 2, author: "bob@example.test", message: "Faster reranker" });
    expect(latest!.changes.map((c) => c.summary)).toEqual(["RAG retrieval p95: 120 ms → 100 ms"]);
  });

  it("refuses a save based on an old version and says who saved in between", async () => {
    const slug = await newChatService();
    const mine = await getBudget({ db, slug });
    const theirs = structuredClone(mine);
    theirs.targetMs = 650;
    await saveBudget({ db, actor: bob, slug, input: theirs });

    mine.stages[0]!.components[0]!.budgetMs.p95 = 140;
    const error = await rejection(saveBudget({ db, actor: alice, slug, input: mine }));
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toContain("bob");
    expect(error.details).toMatchObject({
      current: { version: 2, targetMs: 650 },
      revisionsSince: [{ version: 2, author: "bob@example.test" }],
    });
    expect((await getBudget({ db, slug })).stages[0]!.components[0]!.budgetMs.p95).toBe(150);
  });

  it("lets exactly one of many concurrent saves of the same version win", async () => {
    const slug = await newChatService();
    const base = await getBudget({ db, slug });
    const attempts = Array.from({ length: 8 }, (_, i) => {
      const edit = structuredClone(base);
      edit.targetMs = 600 + i;
      return saveBudget({ db, actor: testUser(`user-${i}`), slug, input: edit });
    });
    const results = await Promise.allSettled(attempts);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost.every((r) => r.reason instanceof AppError && r.reason.code === "CONFLICT")).toBe(true);
    const revisions = await listRevisions({ db, slug, viewer: alice });
    expect(revisions.map((r) => r.version)).toEqual([2, 1]);
    expect((await getBudget({ db, slug })).targetMs).toBe(revisions[0]!.snapshot.targetMs);
  });

  it("restores an old revision as a new one and keeps the history", async () => {
    const slug = await newChatService();
    const v1 = await getBudget({ db, slug });
    await saveBudget({ db, actor: bob, slug, input: { ...v1, stages: v1.stages.slice(0, 2) } });
    const restored = await restoreRevision({ db, actor: alice, slug, revision: 1, input: { version: 2 } });
    expect(restored.version).toBe(3);
    expect(restored.stages).toEqual(v1.stages);
    const [latest] = await listRevisions({ db, slug, viewer: alice });
    expect(latest).toMatchObject({
      version: 3,
      restoredFrom: 1,
      author: "alice@example.test",
      message: "Restored revision 1",
    });
    expect(latest!.changes.filter((c) => c.kind === "stage-added")).toHaveLength(6);
  });

  it("pages through revisions", async () => {
    const slug = await newChatService();
    for (let version = 1; version <= 4; version++) {
      const budget = await getBudget({ db, slug });
      await saveBudget({ db, actor: alice, slug, input: { ...budget, targetMs: 700 + version } });
    }
    expect((await listRevisions({ db, slug, query: { limit: "2" } })).map((r) => r.version)).toEqual([5, 4]);
    expect((await listRevisions({ db, slug, query: { limit: "2", before: "4" } })).map((r) => r.version)).toEqual([
      3, 2,
    ]);
  });

  it("answers not found for unknown services and revisions", async () => {
    expect(await rejection(getBudget({ db, slug: "no-such-service" }))).toMatchObject({ code: "NOT_FOUND" });
    const slug = await newChatService();
    expect(
      await rejection(restoreRevision({ db, actor: alice, slug, revision: 99, input: { version: 1 } })),
    ).toMatchObject({ code: "NOT_FOUND" });
  });
});
