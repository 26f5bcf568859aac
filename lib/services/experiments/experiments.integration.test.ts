import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { rejection } from "@/test/rejection";
import { testPoolSize } from "@/test/databases";
import { chatApi } from "@/prisma/seed-data";
import { createService } from "../services";
import { createExperiment, getAnalysis, setExperimentStatus, uploadSamples } from "./experiments";
import { testUser } from "@/test/actors";

const db = createDb(inject("databaseUrl"), testPoolSize());
const actor = testUser("pm");
let slug: string;
afterAll(() => db.$disconnect());
beforeAll(async () => {
  slug = `exp-${randomUUID().slice(0, 8)}`;
  await createService({ db, actor, input: { ...chatApi.service, slug, stages: chatApi.stages } });
});

const stream = (text: string | Uint8Array) => new Blob([text as BlobPart]).stream() as ReadableStream<Uint8Array>;

async function newExperiment() {
  return createExperiment({
    db,
    actor,
    input: {
      service: slug,
      name: "Prefix caching",
      variants: [
        { name: "control", weight: 50 },
        { name: "treatment", weight: 50 },
      ],
      qualityMaxDrop: 0.01,
    },
  });
}

/** 1000 requests per variant whose 950th-fastest TTFT is exactly `p95` ms. */
function seedExampleCsv(): string {
  const lines = ["variant,ttft_ms,tokens,cost_usd,quality"];
  for (const [variant, p95, dollarsPer1k] of [
    ["control", 660, 0.03],
    ["treatment", 580, 0.025],
  ] as const) {
    for (let i = 1; i <= 1000; i++) {
      const ttft = i <= 950 ? (p95 * i) / 950 : p95 + (i - 950) * 2;
      lines.push(`${variant},${ttft},1000,${dollarsPer1k},0.9`);
    }
  }
  return lines.join("\n");
}

describe(`experiments (${inject("databaseKind")})`, () => {
  it("reads the seed example as “12 % faster at p95 and 17 % cheaper — ship”", async () => {
    const experiment = await newExperiment();
    const result = await uploadSamples({
      db,
      actor,
      id: experiment.id,
      body: stream(seedExampleCsv()),
      contentType: "text/csv",
      query: {},
    });
    expect(result).toEqual({ accepted: 2000, rejected: 0, errors: [], stored: true });
    const { analysis } = await getAnalysis({ db, id: experiment.id });
    const [control, treatment] = analysis.variants;
    expect(control!.indicators.ttftMs!.percentiles[1]).toMatchObject({ ok: true, value: 660 });
    expect(treatment!.indicators.ttftMs!.percentiles[1]).toMatchObject({ ok: true, value: 580 });
    expect(control!.costPer1kTokens!.value).toBeCloseTo(0.03, 12);
    expect(treatment!.costPer1kTokens!.value).toBeCloseTo(0.025, 12);
    expect(analysis.srm).toMatchObject({ isMismatch: false, pValue: 1 });
    expect(analysis.verdict).toEqual({
      decision: "ship",
      sentence: "Treatment is 12 % faster at TTFT p95 and 17 % cheaper — ship.",
    });
  });

  it("uploads add up, in CSV and NDJSON", async () => {
    const experiment = await newExperiment();
    await uploadSamples({
      db,
      actor,
      id: experiment.id,
      body: stream("variant,ttft_ms\ncontrol,100\ntreatment,90\n"),
      contentType: "text/csv",
      query: {},
    });
    await uploadSamples({
      db,
      actor,
      id: experiment.id,
      body: stream('{"variant":"control","ttft_ms":110}\n{"variant":"treatment","ttft_ms":95}\n'),
      contentType: "application/x-ndjson",
      query: {},
    });
    const { analysis } = await getAnalysis({ db, id: experiment.id });
    expect(analysis.variants.map((v) => [v.requests, v.indicators.ttftMs!.mean])).toEqual([
      [2, 105],
      [2, 92.5],
    ]);
    expect(analysis.verdict.decision).toBe("inconclusive");
  });

  it("rejects a file with a bad row, naming the line, and stores nothing", async () => {
    const experiment = await newExperiment();
    const csv =
      "variant,ttft_ms,tokens,cost_usd\ncontrol,100,10,0.1\nbogus,90,10,0.1\ntreatment,abc,10,0.1\ncontrol,1,2,3,4\ntreatment,80,10,0.1\n";
    const error = await rejection(
      uploadSamples({ db, actor, id: experiment.id, body: stream(csv), contentType: "text/csv", query: {} }),
    );
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.details).toMatchObject({ accepted: 2, rejected: 3, stored: false });
    const lines = (error.details!.errors as { line: number; message: string }[]).map((e) => [e.line, e.message]);
    expect(lines).toEqual([
      [3, "variant “bogus” is not one of control, treatment"],
      [4, 'ttft_ms is not a number: "abc"'],
      [5, expect.stringContaining("wrong number of fields")],
    ]);
    expect((await getAnalysis({ db, id: experiment.id })).analysis.variants.every((v) => v.requests === 0)).toBe(true);
  });

  it("with skip, keeps the good rows and reports the bad ones", async () => {
    const experiment = await newExperiment();
    const csv = "variant,ttft_ms\ncontrol,100\ntreatment,-5\ntreatment,80\n";
    const result = await uploadSamples({
      db,
      actor,
      id: experiment.id,
      body: stream(csv),
      contentType: "text/csv",
      query: { onError: "skip" },
    });
    expect(result).toEqual({
      accepted: 2,
      rejected: 1,
      errors: [{ line: 3, message: "ttft_ms must be between 0 and 3600000000, got -5" }],
      stored: true,
    });
  });

  it.each([
    ["an empty file", "", "text/csv", "The file has no rows. Nothing was stored."],
    ["a header only", "variant,ttft_ms\n", "text/csv", "The file has no rows. Nothing was stored."],
    [
      "Latin-1 text",
      new Uint8Array([0x76, 0x61, 0x72, 0x69, 0x61, 0x6e, 0x74, 0x0a, 0x63, 0xe9, 0x0a]),
      "text/csv",
      /not UTF-8/,
    ],
    ["a huge field", `variant,ttft_ms\ncontrol,${"9".repeat(20_000)}\n`, "text/csv", /invalid|cannot be read/],
    ["a spreadsheet", "PK\u0003\u0004", "application/vnd.ms-excel", /Send samples as CSV/],
  ])("refuses %s with a clear message and stores nothing", async (_what, body, type, message) => {
    const experiment = await newExperiment();
    const error = await rejection(
      uploadSamples({ db, actor, id: experiment.id, body: stream(body), contentType: type, query: {} }),
    );
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
    expect(error.message).toMatch(message);
    expect((await getAnalysis({ db, id: experiment.id })).analysis.variants.every((v) => v.requests === 0)).toBe(true);
  });

  it("flags a sample-ratio mismatch and gives no verdict", async () => {
    const experiment = await newExperiment();
    const rows = [
      "variant,ttft_ms",
      ...Array.from({ length: 600 }, (_, i) => `control,${100 + (i % 50)}`),
      ...Array.from({ length: 400 }, (_, i) => `treatment,${50 + (i % 50)}`),
    ];
    await uploadSamples({
      db,
      actor,
      id: experiment.id,
      body: stream(rows.join("\n")),
      contentType: "text/csv",
      query: {},
    });
    const { analysis } = await getAnalysis({ db, id: experiment.id });
    expect(analysis.srm!.chiSquare).toBeCloseTo(40, 9);
    expect(analysis.srm!.isMismatch).toBe(true);
    expect(analysis.verdict.decision).toBe("no-verdict");
  });

  it("refuses a percentile that has too few samples", async () => {
    const experiment = await newExperiment();
    await uploadSamples({
      db,
      actor,
      id: experiment.id,
      body: stream(
        "variant,ttft_ms\n" + Array.from({ length: 50 }, (_, i) => `control,${i}\ntreatment,${i}`).join("\n"),
      ),
      contentType: "text/csv",
      query: {},
    });
    const { analysis } = await getAnalysis({ db, id: experiment.id });
    expect(analysis.variants[0]!.indicators.ttftMs!.percentiles[1]).toMatchObject({ ok: false, needed: 77 });
    expect(analysis.verdict).toMatchObject({
      decision: "inconclusive",
      sentence:
        "Inconclusive: not enough samples yet to judge TTFT p95 (p95 needs at least 77 samples, this variant has 50).",
    });
  });

  it("validates a new experiment field by field", async () => {
    const error = await rejection(
      createExperiment({ db, actor, input: { service: "no-such", name: "", variants: [{ name: "a", weight: 1 }] } }),
    );
    expect(error.fields).toMatchObject({
      name: "Name is required",
      variants: "An experiment needs a control and at least one treatment",
    });
  });

  it("records who uploaded what, newest first", async () => {
    const experiment = await newExperiment();
    for (const [who, rows] of [
      ["alice", "control,100\ntreatment,90"],
      ["bob", "control,110\nblue,1\ntreatment,95"],
    ] as const) {
      await uploadSamples({
        db,
        actor: testUser(who),
        id: experiment.id,
        body: stream(`variant,ttft_ms\n${rows}`),
        contentType: "text/csv",
        query: { onError: "skip" },
      });
    }
    const { uploads } = await getAnalysis({ db, id: experiment.id, viewer: actor });
    expect(uploads.map((u) => [u.createdBy, u.source, u.accepted, u.rejected])).toEqual([
      ["bob@example.test", "csv", 2, 1],
      ["alice@example.test", "csv", 2, 0],
    ]);
  });

  it("moves from running to stopped to decided, records who decided, and refuses a stale change", async () => {
    const experiment = await newExperiment();
    expect(experiment).toMatchObject({ status: "running", version: 1, decision: null });
    const stopped = await setExperimentStatus({
      db,
      actor,
      id: experiment.id,
      input: { version: 1, status: "stopped" },
    });
    expect(stopped).toMatchObject({ status: "stopped", version: 2 });
    const missing = await rejection(
      setExperimentStatus({ db, actor, id: experiment.id, input: { version: 2, status: "decided" } }),
    );
    expect(missing.fields).toEqual({ decision: "Record the decision: ship, do-not-ship or iterate" });
    const decided = await setExperimentStatus({
      db,
      actor: testUser("pm-lead"),
      id: experiment.id,
      input: { version: 2, status: "decided", decision: "ship", decisionNote: "12 % faster, cheaper" },
    });
    expect(decided).toMatchObject({
      status: "decided",
      decision: "ship",
      decidedBy: "pm-lead@example.test",
      version: 3,
    });
    expect(decided.decidedAt).not.toBeNull();
    const stale = await rejection(
      setExperimentStatus({ db, actor, id: experiment.id, input: { version: 2, status: "running" } }),
    );
    expect(stale.code).toBe("CONFLICT");
    expect(stale.message).toContain("now version 3");
    const reopened = await setExperimentStatus({
      db,
      actor,
      id: experiment.id,
      input: { version: 3, status: "running" },
    });
    expect(reopened).toMatchObject({ status: "running", decision: null, decidedBy: null, version: 4 });
  });
});
