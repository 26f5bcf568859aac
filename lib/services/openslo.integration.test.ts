import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, inject, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { createDb } from "@/lib/db/create";
import { testPoolSize } from "@/test/databases";
import { bigOpenSloDocument, openSloDocument } from "@/test/openslo-documents";
import { rejection } from "@/test/rejection";
import { exportOpenSlo, importOpenSlo } from "./openslo";
import { createService } from "./services";
import { createSlo, deleteSlo, getSloStatuses } from "./slos";
import { testUser } from "@/test/actors";

const db = createDb(inject("databaseUrl"), testPoolSize());
const actor = testUser("lead");
afterAll(() => db.$disconnect());

const fixture = (name: string) => readFileSync(`test/fixtures/openslo/${name}`, "utf8");
const slug = () => `openslo-${randomUUID().slice(0, 8)}`;

/** Every table's rows, to prove a refused import stored nothing. */
async function counts() {
  return { services: await db.service.count(), slos: await db.slo.count(), budgets: await db.budget.count() };
}

const sloYaml = (service: string, overrides: { good?: string; total?: string; name?: string } = {}) =>
  openSloDocument({ service, ...overrides, displayName: overrides.name ?? "TTFT under 500 ms" });

describe(`OpenSLO import and export (${inject("databaseKind")})`, () => {
  it("refuses the OpenSLO project's own examples clearly: their sources are type Any", async () => {
    const before = await counts();
    const occurrences = await rejection(importOpenSlo({ db, actor, text: fixture("occurences-slo.yaml") }));
    expect(occurrences.code).toBe("VALIDATION_FAILED");
    expect(occurrences.fields).toEqual({
      "docs[0].spec.indicator.spec.thresholdMetric.metricSource.type": '"Any" is not a Prometheus source',
      // Every problem at once, not one per attempt.
      "docs[0].spec.timeWindow[0].duration": "a rolling window of 2w is not supported: use 7d, 28d or 30d",
    });
    const slices = await rejection(importOpenSlo({ db, actor, text: fixture("timeslices-slo.yaml") }));
    expect(slices.fields).toMatchObject({
      "docs[0].spec.indicator.spec.ratioMetric.good.metricSource.type": '"Any" is not a Prometheus source',
    });
    expect(slices.message).toMatch(/^Nothing was imported: 1 document cannot be imported/);
    expect(await counts()).toEqual(before);
  });

  it("creates a service from a Service document and its SLO from a ratio of bucket over count", async () => {
    const service = slug();
    const text = `apiVersion: openslo/v1
kind: Service
metadata: { name: ${service}, displayName: Chat }
spec: { description: From Git }
---
${sloYaml(service)}`;
    const { imported } = await importOpenSlo({ db, actor, text });
    expect(imported).toEqual([
      { kind: "Service", name: service, service, action: "created" },
      { kind: "SLO", name: "TTFT under 500 ms", service, action: "created" },
    ]);
    const [slo] = await getSloStatuses({ db, prom: null, slug: service });
    expect(slo).toMatchObject({
      name: "TTFT under 500 ms",
      thresholdMs: 500,
      objective: 0.99,
      windowDays: 28,
      source: { preset: "custom", metric: "llm_request_ttft_seconds", matchers: { service: "chat" } },
    });
    // The same file again changes nothing: "apply" semantics for files kept in Git.
    expect((await importOpenSlo({ db, actor, text })).imported.map((i) => i.action)).toEqual([
      "unchanged",
      "unchanged",
    ]);
  });

  it("is all or nothing, and names every document and path it cannot import", async () => {
    const service = slug();
    await createService({ db, actor, input: { slug: service, name: "S" } });
    const before = await counts();
    const text = [
      sloYaml(service, { name: "fine" }),
      sloYaml(service, { name: "regex", good: 'x_bucket{service=~"c.*",le="0.5"}' }),
      sloYaml(service, { name: "other-histogram", total: 'y_count{service="chat"}' }),
      sloYaml(service, { name: "arithmetic", good: 'x_bucket{le="0.5"} / 2' }),
      sloYaml("no-such-service", { name: "orphan" }),
    ].join("---\n");
    const error = await rejection(importOpenSlo({ db, actor, text }));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.fields).toEqual({
      "docs[1].spec.indicator.spec.ratioMetric.good.metricSource.spec.query":
        "cannot be imported: the matcher on service uses =~; only = selects one histogram exactly",
      "docs[2].spec.indicator.spec.ratioMetric.total.metricSource.spec.query":
        'must select llm_request_ttft_seconds_count (or llm_request_ttft_seconds_bucket with le="+Inf") with the good query\'s matchers, so both count the same requests',
      "docs[3].spec.indicator.spec.ratioMetric.good.metricSource.spec.query":
        "cannot be imported: it combines series with arithmetic; give one histogram series selector",
      "docs[4].spec.service": "no service “no-such-service”: create it first or add a Service document for it",
    });
    expect(await counts()).toEqual(before);
  });

  it("exports SLOs that import back the same, timeslices and calendar windows included", async () => {
    const service = slug();
    await createService({ db, actor, input: { slug: service, name: "Chat" } });
    const source = {
      preset: "generic",
      metric: "llm_request_ttft_seconds",
      matchers: { service: "chat", model: 'a "b"' },
    };
    const definitions = [
      { name: "TTFT under 700 ms", source, thresholdMs: 700, objective: 0.99, thresholdMode: "interpolate" },
      {
        name: "Monthly slices",
        source,
        thresholdMs: 250,
        objective: 0.995,
        windowKind: "calendar",
        calendarUnit: "month",
        timeZone: "Europe/Berlin",
        budgetingMethod: "timeslices",
        timesliceMinutes: 5,
        timesliceTarget: 0.95,
      },
      { name: "Weekly", source, thresholdMs: 1000, objective: 0.9, windowDays: 7 },
    ];
    const created: Awaited<ReturnType<typeof createSlo>>[] = [];
    for (const input of definitions) created.push(await createSlo({ db, actor, slug: service, input }));
    const { text } = await exportOpenSlo({ db, slug: service });
    const docs = parseAllDocuments(text).map((d) => d.toJS() as { kind: string; spec: { budgetingMethod?: string } });
    expect(docs.map((d) => d.kind)).toEqual(["Service", "SLO", "SLO", "SLO"]);
    expect(docs[1]!.spec.budgetingMethod).toBe("Timeslices");

    for (const slo of created) await deleteSlo({ db, actor, slug: service, id: slo.id });
    const { imported } = await importOpenSlo({ db, actor, text });
    expect(imported.filter((i) => i.kind === "SLO").map((i) => i.action)).toEqual(["created", "created", "created"]);
    const definition = ({ id: _i, version: _v, updatedAt: _u, updatedBy: _b, ...rest }: (typeof created)[number]) =>
      rest;
    const back = await getSloStatuses({ db, prom: null, slug: service });
    expect(back.map((row) => row.name).sort()).toEqual(created.map((c) => c.name).sort());
    for (const original of created) {
      const row = back.find((b) => b.name === original.name)!;
      const fields = Object.keys(definition(original)) as (keyof ReturnType<typeof definition>)[];
      const compared = Object.fromEntries(
        fields.map((f) => [f, f === "thresholdMode" ? row.thresholdPreference : row[f as keyof typeof row]]),
      );
      expect(compared).toEqual(definition(original));
    }
  });

  it("exports a millisecond histogram's threshold in milliseconds, and a stated unit, and imports both back", async () => {
    const service = slug();
    await createService({ db, actor, input: { slug: service, name: "Spans" } });
    const spans = {
      preset: "otel-spanmetrics",
      metric: "traces_span_metrics_duration_milliseconds",
      matchers: { span_name: "rag" },
    };
    const stated = { preset: "custom", metric: "rag_latency", matchers: {}, unit: "milliseconds" as const };
    await createSlo({
      db,
      actor,
      slug: service,
      input: { name: "RAG", source: spans, thresholdMs: 700, objective: 0.99 },
    });
    await createSlo({
      db,
      actor,
      slug: service,
      input: { name: "Stated", source: stated, thresholdMs: 250, objective: 0.9 },
    });
    const { text } = await exportOpenSlo({ db, slug: service });
    expect(text).toContain('traces_span_metrics_duration_milliseconds_bucket{le=\"700\",span_name=\"rag\"}');
    expect(text).toContain('rag_latency_bucket{le=\"250\"}');
    expect(text).toContain("latency-budgets.dev/unit: milliseconds");
    for (const row of await getSloStatuses({ db, prom: null, slug: service }))
      await deleteSlo({ db, actor, slug: service, id: row.id });
    await importOpenSlo({ db, actor, text });
    const back = Object.fromEntries(
      (await getSloStatuses({ db, prom: null, slug: service })).map((row) => [row.name, row]),
    );
    expect(back.RAG).toMatchObject({ thresholdMs: 700, source: spans });
    expect(back.Stated).toMatchObject({ thresholdMs: 250, source: stated });
  });

  it("bounds YAML aliases (no billion laughs) and the number of documents", async () => {
    const laughs = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++)
      laughs.push(
        `${"abcdefghij"[i]}: &${"abcdefghij"[i]} [${Array(10)
          .fill(`*${"abcdefghij"[i - 1]}`)
          .join(", ")}]`,
      );
    const bomb = await rejection(importOpenSlo({ db, actor, text: `${laughs.join("\n")}\nkind: SLO\n` }));
    expect(bomb.code).toBe("VALIDATION_FAILED");
    expect(bomb.fields!["docs[0]"]).toMatch(/cannot be read: .*alias/i);
    const many = Array(101).fill("apiVersion: openslo/v1\nkind: Service\nmetadata: { name: x }\n").join("---\n");
    expect((await rejection(importOpenSlo({ db, actor, text: many }))).code).toBe("PAYLOAD_TOO_LARGE");
    expect(parse("a: 1")).toEqual({ a: 1 });
  });

  it("applies the app's own name rules to every displayName: a NUL, a newline, an escape or {{ is refused", async () => {
    const service = slug();
    const before = await counts();
    const serviceDoc = (displayName: string) =>
      `apiVersion: openslo/v1\nkind: Service\nmetadata: { name: ${service}, displayName: ${JSON.stringify(displayName)} }\n`;
    for (const [displayName, message] of [
      ["Chat\u0000api", "Name contains characters that are not allowed"],
      ["Chat\nsecond line", "Name contains characters that are not allowed"],
      ["Chat \u001b[31mred", "Name contains characters that are not allowed"],
      ['Chat {{ with query "up" }}', "Name cannot contain {{ or }}"],
    ]) {
      const error = await rejection(importOpenSlo({ db, actor, text: serviceDoc(displayName!) }));
      expect(error.code, displayName).toBe("VALIDATION_FAILED");
      expect(error.fields, displayName).toEqual({ "docs[0].metadata.displayName": message });
    }
    const slo = await rejection(
      importOpenSlo({ db, actor, text: `${serviceDoc("Chat")}---\n${sloYaml(service, { name: "a {{ b }}" })}` }),
    );
    expect(slo.fields).toEqual({ "docs[1].metadata.displayName": "Name cannot contain {{ or }}" });
    expect(await counts()).toEqual(before);
  });

  it("refuses duplicate keys in one pass: a 1 MB mapping is refused in about a second, not minutes", async () => {
    const text = bigOpenSloDocument();
    expect(text.length).toBeGreaterThan(900_000);
    const started = performance.now();
    const error = await rejection(importOpenSlo({ db, actor, text }));
    expect(error.fields).toEqual({ "docs[0]": "is not valid YAML: Map keys must be unique at line 70006, column 5" });
    // Quadratic, this took 143 s; the bound is generous for a busy 2-core machine.
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 30_000);
});
