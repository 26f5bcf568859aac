import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { chatApi } from "@/prisma/seed-data";
import { SEED_EXPERIMENT } from "@/prisma/seed-experiment";
import { testPoolSize } from "@/test/databases";
import { rejection } from "@/test/rejection";
import { alertPayload } from "@/test/rights-cases";
import { testUser } from "@/test/actors";
import type { Actor } from "./actor";
import { receiveAlertmanagerWebhook } from "./alerts";
import { createAnnotation, deleteAnnotation, listAnnotations } from "./annotations";
import { getBudget, saveBudget } from "./budgets";
import { createExperiment, setExperimentStatus } from "./experiments/experiments";
import { createService } from "./services";
import { createSlo, updateSlo } from "./slos";

const db = createDb(inject("databaseUrl"), testPoolSize());
const lead = testUser("lead");
afterAll(() => db.$disconnect());

const ci: Actor = {
  kind: "token",
  id: "token-ci",
  name: "deploy step",
  scopes: ["write:annotations"],
  user: { id: "test-ci", email: "ci@example.test", name: "CI", role: "editor" },
};

async function newService() {
  const slug = `ann-${randomUUID().slice(0, 8)}`;
  await createService({ db, actor: lead, input: { ...chatApi.service, slug, stages: chatApi.stages } });
  return slug;
}

describe(`annotations (${inject("databaseKind")})`, () => {
  it("a deploy step posts with a token; a person's note is a note; both come back as typed", async () => {
    const slug = await newService();
    const text = '<script>alert(1)</script> {{ .Labels.x }} rollout of rag-v2 & "reranker"';
    const at = Math.floor(Date.now() / 1000) - 120;
    const deploy = await createAnnotation({
      db,
      actor: ci,
      input: { service: slug, at, text, tags: ["deploy", "rag-v2"], url: "https://ci.example.test/runs/42" },
    });
    expect(deploy).toMatchObject({
      kind: "deploy",
      text,
      at,
      author: "deploy step (ci@example.test)",
      authorKind: "token",
    });
    const note = await createAnnotation({ db, actor: lead, input: { service: slug, text: "Paged; looking at RAG" } });
    expect(note).toMatchObject({ kind: "note", author: "lead@example.test", tags: [], url: null });
    const listed = await listAnnotations({ db, slug, query: { range: "1h" } });
    expect(listed.map((a) => [a.kind, a.text])).toEqual([
      ["deploy", text],
      ["note", "Paged; looking at RAG"],
    ]);
    expect((await listAnnotations({ db, slug, query: { range: "1h", end: String(at - 1) } })).length).toBe(0);
  });

  it("refuses what it cannot store, naming the field", async () => {
    const slug = await newService();
    const bad = await rejection(
      createAnnotation({ db, actor: lead, input: { service: slug, text: "x", url: "javascript:alert(1)" } }),
    );
    expect(bad.fields).toEqual({ url: "The link must be an http:// or https:// URL" });
    const missing = await rejection(createAnnotation({ db, actor: lead, input: { service: "no-such", text: "x" } }));
    expect(missing.code).toBe("NOT_FOUND");
    const viewer = await rejection(
      createAnnotation({ db, actor: testUser("viewer", "viewer"), input: { service: slug, text: "x" } }),
    );
    expect(viewer.code).toBe("FORBIDDEN");
  });

  it("the app annotates budget saves, SLO changes, experiment decisions and delivered alerts", async () => {
    const slug = await newService();
    const budget = await getBudget({ db, slug });
    budget.stages[4]!.components[1]!.budgetMs.p95 = 100;
    await saveBudget({ db, actor: lead, slug, input: { ...budget, message: "Tighter RAG" } });
    const slo = await createSlo({ db, actor: lead, slug, input: chatApi.slos![0] });
    await updateSlo({
      db,
      actor: lead,
      slug,
      id: slo.id,
      input: { ...chatApi.slos![0], objective: 0.995, version: 1 },
    });
    const experiment = await createExperiment({ db, actor: lead, input: { ...SEED_EXPERIMENT, service: slug } });
    await setExperimentStatus({
      db,
      actor: lead,
      id: experiment.id,
      input: { version: experiment.version, status: "decided", decision: "ship", decisionNote: "p95 −40 ms" },
    });
    const alert = alertPayload(slug);
    await receiveAlertmanagerWebhook({ db, actor: { kind: "alertmanager" }, input: alert });
    // Alertmanager re-sends the group: the same alert state is one marker.
    await receiveAlertmanagerWebhook({ db, actor: { kind: "alertmanager" }, input: alert });
    const kinds = (await listAnnotations({ db, slug, query: { range: "1h" } })).map((a) => a.kind);
    expect(kinds.sort()).toEqual(["alert", "budget", "experiment", "slo", "slo"]);
    const events = await listAnnotations({ db, slug, query: { range: "1h" } });
    expect(events.find((a) => a.kind === "budget")!.text).toContain("RAG retrieval p95: 120 ms → 100 ms");
    expect(events.find((a) => a.kind === "experiment")!.text).toContain("ship");
    expect(events.find((a) => a.kind === "alert")!.text).toBe("EndToEndOverTarget firing");
  });

  it("deletes a mistaken note or deploy, never the app's own history", async () => {
    const slug = await newService();
    const note = await createAnnotation({ db, actor: lead, input: { service: slug, text: "wrong service" } });
    await deleteAnnotation({ db, actor: lead, id: note.id });
    const budget = await getBudget({ db, slug });
    await saveBudget({ db, actor: lead, slug, input: budget });
    const [event] = await listAnnotations({ db, slug, query: { range: "1h" } });
    expect(event!.kind).toBe("budget");
    const refused = await rejection(deleteAnnotation({ db, actor: lead, id: event!.id }));
    expect(refused.code).toBe("VALIDATION_FAILED");
    expect((await rejection(deleteAnnotation({ db, actor: lead, id: note.id }))).code).toBe("NOT_FOUND");
  });
});
