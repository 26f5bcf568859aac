import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { newUser } from "@/test/credentials";
import { addExamples, EXAMPLE_SLUGS } from "./examples";

// The first-run page's button: the three example services, added for the person who asks, once.
// (That `npm start` adds nothing by itself is checked on a real process: scripts/first-run.instances.test.ts.)

afterAll(() => db().$disconnect());
const removeExamples = () => db().service.deleteMany({ where: { slug: { in: EXAMPLE_SLUGS } } });
const examplesHere = async () =>
  (await db().service.findMany({ where: { slug: { in: EXAMPLE_SLUGS } }, select: { slug: true } }))
    .map((s) => s.slug)
    .sort();

describe("adding the examples", () => {
  beforeEach(removeExamples);

  it("adds the three services with their SLOs and the experiment, in the name of who asked", async () => {
    expect([...EXAMPLE_SLUGS].sort()).toEqual(["chat-api", "rag-answer", "rag-chatbot"]);
    const editor = await newUser("editor", "examples");
    expect(await addExamples({ db: db(), actor: editor })).toEqual({
      created: ["chat-api", "rag-answer", "rag-chatbot"],
    });
    expect(await examplesHere()).toEqual(["chat-api", "rag-answer", "rag-chatbot"]);
    const chat = await db().service.findUniqueOrThrow({
      where: { slug: "chat-api" },
      include: { slos: true, experiments: true },
    });
    expect(chat.slos.length).toBeGreaterThan(0);
    expect(chat.experiments.map((e) => e.name)).toEqual(["Prefix caching"]);
    const created = await db().auditEntry.findMany({
      where: { action: "service.create", serviceSlug: { in: EXAMPLE_SLUGS }, actorId: editor.id },
    });
    expect(created.map((e) => e.serviceSlug).sort()).toEqual(["chat-api", "rag-answer", "rag-chatbot"]);
  });

  it("refuses a second time with a 409 that says they are here, and adds back only what is missing", async () => {
    const editor = await newUser("editor", "examples-twice");
    await addExamples({ db: db(), actor: editor });
    const again = await addExamples({ db: db(), actor: editor }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(AppError);
    expect((again as AppError).code).toBe("CONFLICT");
    expect((again as AppError).message).toMatch(/here already \(chat-api, rag-answer, rag-chatbot\)/);
    expect(await examplesHere()).toEqual(["chat-api", "rag-answer", "rag-chatbot"]);

    await db().service.delete({ where: { slug: "rag-answer" } });
    expect(await addExamples({ db: db(), actor: editor })).toEqual({ created: ["rag-answer"] });
  });

  it("a viewer may not add them, and nothing is added", async () => {
    const viewer = await newUser("viewer", "examples-viewer");
    const refused = await addExamples({ db: db(), actor: viewer }).catch((error: unknown) => error);
    expect((refused as AppError).code).toBe("FORBIDDEN");
    expect(await examplesHere()).toEqual([]);
  });
});
