import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import * as servicesRoute from "@/app/api/services/route";
import * as budgetRoute from "@/app/api/services/[slug]/budget/route";
import * as revisionsRoute from "@/app/api/services/[slug]/budget/revisions/route";
import * as restoreRoute from "@/app/api/services/[slug]/budget/revisions/[version]/restore/route";
import * as healthRoute from "@/app/api/health/route";
import * as experimentsRoute from "@/app/api/experiments/route";
import * as optimizationsRoute from "@/app/api/optimizations/route";
import { withClient } from "@/test/databases";
import { call, type Handler } from "@/test/http";
import { chatApi } from "@/prisma/seed-data";
import { db } from "@/lib/db/client";

// The JSON API exercised through its real route handlers and a real database.

afterAll(() => db().$disconnect());

async function newService() {
  const slug = `api-${randomUUID().slice(0, 8)}`;
  const created = await call(servicesRoute.POST, {
    path: "/api/services",
    method: "POST",
    json: { ...chatApi.service, slug, stages: chatApi.stages },
  });
  expect(created.status).toBe(201);
  return slug;
}

describe(`JSON API (${inject("databaseKind")})`, () => {
  it("GET /api/health reports the database", async () => {
    const { status, body } = await call(healthRoute.GET, { path: "/api/health" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, database: inject("databaseKind"), prometheus: "unconfigured" });
  });

  it("creates, reads, saves and lists revisions in the documented shapes", async () => {
    const slug = await newService();
    const list = await call(servicesRoute.GET, { path: "/api/services" });
    expect(list.body.find((s: { slug: string }) => s.slug === slug)).toMatchObject({ stackedMs: 660, marginMs: 40 });

    const budget = await call(budgetRoute.GET, { path: `/api/services/${slug}/budget`, params: { slug } });
    expect(budget.status).toBe(200);
    expect(budget.body).toMatchObject({ version: 1, targetMs: 700, quantile: 0.95 });
    expect(budget.body.stages[4].components[1]).toEqual({
      name: "RAG retrieval",
      budgetMs: { p50: 60, p95: 120, p99: 150 },
      source: {
        preset: "generic",
        metric: "llm_stage_duration_seconds",
        matchers: { service: "chat-api", stage: "rag" },
      },
    });

    const edited = { ...budget.body, targetMs: 680 };
    const saved = await call(budgetRoute.PUT, {
      path: `/api/services/${slug}/budget`,
      method: "PUT",
      params: { slug },
      json: edited,
    });
    expect(saved).toMatchObject({ status: 200, body: { version: 2, targetMs: 680 } });

    const stale = await call(budgetRoute.PUT, {
      path: `/api/services/${slug}/budget`,
      method: "PUT",
      params: { slug },
      json: edited,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "CONFLICT", current: { version: 2 } });

    const revisions = await call(revisionsRoute.GET, {
      path: `/api/services/${slug}/budget/revisions`,
      params: { slug },
    });
    expect(revisions.body.map((r: { version: number }) => r.version)).toEqual([2, 1]);
    expect(revisions.body[0]).toMatchObject({
      // The author is the token's owner, and the token that made the change.
      author: expect.stringMatching(/^admin-token-owner-[0-9a-f]{8}@example\.test \(token tests [0-9a-f]{4}\)$/),
      changes: [{ summary: "TTFT q0.95 < 700 ms → TTFT q0.95 < 680 ms" }],
    });
    expect(typeof revisions.body[0].createdAt).toBe("string");

    const restored = await call(restoreRoute.POST, {
      path: `/api/services/${slug}/budget/revisions/1/restore`,
      method: "POST",
      params: { slug, version: "1" },
      json: { version: 2 },
    });
    expect(restored).toMatchObject({ status: 200, body: { version: 3, targetMs: 700 } });
  });

  it("answers 422 with a message per field", async () => {
    const slug = await newService();
    const budget = (await call(budgetRoute.GET, { path: `/api/services/${slug}/budget`, params: { slug } })).body;
    budget.stages[0].components[0].budgetMs.p95 = -5;
    budget.stages[1].name = "";
    const { status, body } = await call(budgetRoute.PUT, {
      path: `/api/services/${slug}/budget`,
      method: "PUT",
      params: { slug },
      json: budget,
    });
    expect(status).toBe(422);
    expect(body.error).toEqual({
      code: "VALIDATION_FAILED",
      message: "The budget has 2 invalid fields.",
      fields: {
        "stages.0.components.0.budgetMs.p95": "Must be more than 0 ms",
        "stages.1.name": "Stage name is required",
      },
    });
  });

  it.each([
    ["GET budget", budgetRoute.GET, { slug: "nope-nope" }],
    ["GET revisions", revisionsRoute.GET, { slug: "nope-nope" }],
    ["GET budget with a hostile slug", budgetRoute.GET, { slug: "../../etc/passwd" }],
  ])("%s of an unknown service is 404", async (_name, handler, params) => {
    const { status, body } = await call(handler as Handler, { path: "/x", params });
    expect(status).toBe(404);
    expect(body.error.code).toBe("NOT_FOUND");
  });
});

// Bad input: every mutation endpoint, malformed, oversized and hostile payloads.
describe(`bad input (${inject("databaseKind")})`, () => {
  const huge = "x".repeat(300 * 1024);
  const deep = "[".repeat(5000) + "]".repeat(5000);
  const payloads: [string, { body?: BodyInit; json?: unknown; headers?: Record<string, string> }][] = [
    ["no body", { headers: { "content-type": "application/json" } }],
    ["empty body", { body: "", headers: { "content-type": "application/json" } }],
    ["malformed JSON", { body: '{"targetMs": 70', headers: { "content-type": "application/json" } }],
    ["wrong content type", { body: "targetMs=700", headers: { "content-type": "application/x-www-form-urlencoded" } }],
    ["oversized body", { body: JSON.stringify({ name: huge }), headers: { "content-type": "application/json" } }],
    [
      "invalid UTF-8",
      { body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), headers: { "content-type": "application/json" } },
    ],
    ["deeply nested JSON", { body: deep, headers: { "content-type": "application/json" } }],
    ["JSON null", { json: null }],
    ["an array", { json: [1, 2, 3] }],
    ["a string", { json: 'DROP TABLE "Service";' }],
    [
      "prototype pollution",
      {
        body: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
        headers: { "content-type": "application/json" },
      },
    ],
    [
      "SQL in every string",
      {
        json: {
          slug: 'x\'; DROP TABLE "Service"; --',
          name: "' OR 1=1 --",
          version: '1; DROP TABLE "Budget"',
          indicator: "'",
          targetMs: "1 OR 1=1",
          quantile: 0.95,
          stages: [],
        },
      },
    ],
    [
      "huge numbers",
      {
        json: {
          slug: "ok-slug",
          name: "n",
          targetMs: 1e308,
          version: 1e308,
          quantile: 0.95,
          indicator: "x",
          stages: [],
        },
      },
    ],
    [
      "too many stages",
      {
        json: {
          indicator: "x",
          targetMs: 1,
          quantile: 0.95,
          stages: Array.from({ length: 5000 }, (_, i) => ({ name: `s${i}`, components: [] })),
        },
      },
    ],
    [
      "hostile label values",
      {
        json: {
          indicator: "x",
          targetMs: 1,
          quantile: 0.95,
          stages: [
            {
              name: "s",
              components: [
                {
                  name: "c",
                  budgetMs: { p50: null, p95: 1, p99: null },
                  source: { preset: "custom", metric: 'x"} or vector(1) #', matchers: { '"}': "\uDC00" } },
                },
              ],
            },
          ],
        },
      },
    ],
  ];

  async function databaseState() {
    return withClient(inject("databaseUrl"), async (c) => {
      const services = await c.query(`SELECT slug FROM "Service" ORDER BY slug`);
      const budgets = await c.query(
        `SELECT "serviceId", version, "targetMs", stages FROM "Budget" ORDER BY "serviceId"`,
      );
      const revisions = await c.query(`SELECT count(*)::int AS n FROM "BudgetRevision"`);
      const experiments = await c.query(`SELECT count(*)::int AS n FROM "Experiment"`);
      const optimizations = await c.query(`SELECT count(*)::int AS n FROM "Optimization"`);
      return {
        services: services.rows,
        budgets: budgets.rows,
        revisions: revisions.rows,
        experiments: experiments.rows,
        optimizations: optimizations.rows,
      };
    });
  }

  it.each(payloads)("%s is a 4xx with a message on every mutation, and nothing changes", async (_name, payload) => {
    const slug = await newService();
    const before = await databaseState();
    const endpoints: [string, Handler, string, Record<string, string>][] = [
      ["POST /api/services", servicesRoute.POST as Handler, "POST", {}],
      ["PUT budget", budgetRoute.PUT as Handler, "PUT", { slug }],
      ["POST restore", restoreRoute.POST as Handler, "POST", { slug, version: "1" }],
      ["POST /api/experiments", experimentsRoute.POST as Handler, "POST", {}],
      ["POST /api/optimizations", optimizationsRoute.POST as Handler, "POST", {}],
    ];
    for (const [name, handler, method, params] of endpoints) {
      const { status, body } = await call(handler, { path: "/api", method, params, ...payload });
      expect(status, `${name} answered ${status}: ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(status, name).toBeLessThan(500);
      expect(typeof body.error.message, name).toBe("string");
      expect(body.error.message.length, name).toBeGreaterThan(5);
      expect(JSON.stringify(body), name).not.toMatch(/at \w+ \(|node_modules|prisma:/i);
    }
    expect(await databaseState()).toEqual(before);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe(`text PostgreSQL cannot store faithfully is refused with the field named (${inject("databaseKind")})`, () => {
  it("a NUL in a description is a 422 on description, not a 500", async () => {
    const slug = `api-${randomUUID().slice(0, 8)}`;
    const { status, body } = await call(servicesRoute.POST, {
      path: "/api/services",
      method: "POST",
      json: { slug, name: "Nul", description: "before\u0000after" },
    });
    expect(status).toBe(422);
    expect(body.error.fields).toEqual({
      description: "Description contains a NUL character (\\u0000), which cannot be stored",
    });
  });

  it("a NUL in a label value is a 422 on that matcher", async () => {
    const slug = await newService();
    const budget = (await call(budgetRoute.GET, { path: "/x", params: { slug } })).body;
    budget.stages[0].components[0].source.matchers.stage = "net\u0000work";
    const { status, body } = await call(budgetRoute.PUT, { path: "/x", method: "PUT", params: { slug }, json: budget });
    expect(status).toBe(422);
    expect(body.error.fields).toEqual({
      "stages.0.components.0.source.matchers.stage":
        "Label value contains a NUL character (\\u0000), which cannot be stored",
    });
  });

  it("a lone surrogate in a description is refused, not stored as U+FFFD", async () => {
    const { status, body } = await call(servicesRoute.POST, {
      path: "/api/services",
      method: "POST",
      body: `{"slug":"api-${randomUUID().slice(0, 8)}","name":"S","description":"caf\\ud800"}`,
      headers: { "content-type": "application/json" },
    });
    expect(status).toBe(422);
    expect(body.error.fields.description).toBe("Description is not valid Unicode (it has a lone surrogate)");
  });

  it("__proto__ as a label name is refused with the field named, not silently dropped", async () => {
    const slug = await newService();
    const budget = (await call(budgetRoute.GET, { path: "/x", params: { slug } })).body;
    const text = JSON.stringify({
      ...budget,
      endToEndSource: { preset: "custom", metric: "m", matchers: "MATCHERS" },
    }).replace('"MATCHERS"', '{"__proto__":"x","stage":"rag"}');
    const { status, body } = await call(budgetRoute.PUT, {
      path: "/x",
      method: "PUT",
      params: { slug },
      body: text,
      headers: { "content-type": "application/json" },
    });
    expect(status).toBe(422);
    expect(body.error.fields).toEqual({
      "endToEndSource.matchers.__proto__": "Label names starting with __ are reserved",
    });
    expect((await call(budgetRoute.GET, { path: "/x", params: { slug } })).body.version).toBe(budget.version);
  });
});

describe(`hostile values that are refused or stored as plain data (${inject("databaseKind")})`, () => {
  async function put(
    slug: string,
    edit: (
      budget: Record<string, unknown> & { stages: { name: string; components: Record<string, unknown>[] }[] },
    ) => void,
  ) {
    const budget = (await call(budgetRoute.GET, { path: "/x", params: { slug } })).body;
    edit(budget);
    return call(budgetRoute.PUT, { path: "/x", method: "PUT", params: { slug }, json: budget });
  }

  it("refuses 5000 stages and PromQL smuggled into a source, naming the fields", async () => {
    const slug = await newService();
    const many = await put(
      slug,
      (b) => (b.stages = Array.from({ length: 5000 }, (_, i) => ({ name: `s${i}`, components: [] }))),
    );
    expect(many.status).toBe(422);
    expect(many.body.error.fields.stages).toBe("At most 40 stages");

    const smuggled = await put(slug, (b) => {
      b.stages[0]!.components[0]!.source = {
        preset: "custom",
        metric: 'x"} or vector(1) #',
        matchers: { '"}': "\uDC00" },
      };
    });
    expect(smuggled.status).toBe(422);
    expect(Object.keys(smuggled.body.error.fields).sort()).toEqual([
      'stages.0.components.0.source.matchers."}',
      "stages.0.components.0.source.metric",
    ]);
  });

  it("stores SQL-looking and PromQL-looking text verbatim as data", async () => {
    const slug = await newService();
    const hostileName = `'; DROP TABLE "Service"; -- "} or vector(1) # \\ ✓`;
    const saved = await put(slug, (b) => {
      b.stages[0]!.name = hostileName;
      b.stages[0]!.components[0]!.source = {
        preset: "custom",
        metric: "ok_metric",
        matchers: { stage: '"} or vector(1) #\\' },
      };
    });
    expect(saved.status).toBe(200);
    const read = (await call(budgetRoute.GET, { path: "/x", params: { slug } })).body;
    expect(read.stages[0].name).toBe(hostileName);
    expect(read.stages[0].components[0].source.matchers.stage).toBe('"} or vector(1) #\\');
    expect((await call(servicesRoute.GET, { path: "/api/services" })).status).toBe(200);
  });
});
