import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as planRoute from "@/app/api/capacity/plan/route";
import * as queueRoute from "@/app/api/capacity/queue/route";
import * as servicesRoute from "@/app/api/services/route";
import * as capacityRoute from "@/app/api/services/[slug]/capacity/route";
import * as kpisRoute from "@/app/api/services/[slug]/kpis/route";
import * as reportRoute from "@/app/api/services/[slug]/report/route";
import * as whatIfRoute from "@/app/api/services/[slug]/whatif/route";
import { db } from "@/lib/db/client";
import { chatApi } from "@/prisma/seed-data";
import { testAdminToken } from "@/test/credentials";
import { call, type Handler } from "@/test/http";

// The insight endpoints through their route handlers, without Prometheus (this suite has none):
// the calculators' known answers, and every view's query checked before anything is read.

const slug = `insights-${randomUUID().slice(0, 8)}`;
beforeAll(async () => {
  const created = await call(servicesRoute.POST as Handler, {
    method: "POST",
    json: { ...chatApi.service, slug, stages: chatApi.stages },
  });
  expect(created.status).toBe(201);
});
afterAll(() => db().$disconnect());

describe(`capacity calculators over HTTP (${inject("databaseKind")})`, () => {
  it("plans seed 002's fleet: 100 slots, 16 GPUs, 3.2 RPS each, 51.2 RPS, 20 % headroom", async () => {
    const { status, body } = await call(planRoute.POST as Handler, {
      method: "POST",
      json: { targetRps: 50, avgLatencyS: 2, maxConcurrentPerGpu: 8, targetUtilization: 0.8 },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      requiredConcurrentSlots: 100,
      gpusNeeded: 16,
      headroomPercent: expect.closeTo(20, 9),
    });
    expect(body.throughputPerGpuRps).toBeCloseTo(3.2, 9);
    expect(body.totalCapacityRps).toBeCloseTo(51.2, 9);
  });

  it("answers M/M/2 with λ = μ = 1: waits with probability 1/3, with the curve for the chart", async () => {
    const { status, body } = await call(queueRoute.POST as Handler, {
      method: "POST",
      json: { arrivalRps: 1, serviceTimeS: 1, servers: 2 },
    });
    expect(status).toBe(200);
    expect(body.utilization).toBe(0.5);
    expect(body.probabilityOfWait).toBeCloseTo(1 / 3, 12);
    expect(body.meanQueueLength).toBeCloseTo(1 / 3, 12);
    expect(body.meanWaitS).toBeCloseTo(1 / 3, 12);
    expect(body.curve.length).toBeGreaterThan(20);
  });

  it("answers an overloaded queue as unstable, not with a number", async () => {
    const { body } = await call(queueRoute.POST as Handler, {
      method: "POST",
      json: { arrivalRps: 3, serviceTimeS: 1, servers: 2 },
    });
    expect(body).toMatchObject({ stable: false, probabilityOfWait: 1, meanQueueLength: null, meanWaitS: null });
  });

  it("refuses what a person cannot mean, field by field", async () => {
    const { status, body } = await call(planRoute.POST as Handler, {
      method: "POST",
      json: { targetRps: -1, avgLatencyS: 2, maxConcurrentPerGpu: 8.5, targetUtilization: 1.2 },
    });
    expect(status).toBe(422);
    expect(body.error.fields).toEqual({
      targetRps: "Target RPS must be above 0",
      maxConcurrentPerGpu: "Slots per GPU must be a whole number",
      targetUtilization: "Target utilisation is a share: at most 1 (every slot busy)",
    });
    const unknown = await call(queueRoute.POST as Handler, {
      method: "POST",
      body: '{"arrivalRps":1,"serviceTimeS":1,"__proto__":{"servers":3}}',
      headers: { "content-type": "application/json" },
    });
    expect(unknown.status).toBe(422);
  });
});

describe(`live insight views without Prometheus (${inject("databaseKind")})`, () => {
  const views = [
    ["capacity", capacityRoute.GET],
    ["kpis", kpisRoute.GET],
    ["report", reportRoute.GET],
    ["whatif", whatIfRoute.GET],
  ] as const;

  it.each(views)("%s answers, saying Prometheus is not configured", async (name, handler) => {
    const { status, body } = await call(handler as Handler, {
      path: `/api/services/${slug}/${name}`,
      params: { slug },
    });
    expect(status).toBe(200);
    expect(body.error ?? body.prometheus).toMatch(/not configured|unconfigured/);
  });

  it.each(views)("%s refuses a bad window with a message and a missing service with 404", async (name, handler) => {
    const bad = await call(handler as Handler, {
      path: `/api/services/${slug}/${name}?window=forever`,
      params: { slug },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.window).toBe("Window is a duration like 5m, 1h or 1d");
    const missing = await call(handler as Handler, { path: `/api/services/nope/${name}`, params: { slug: "nope" } });
    expect(missing.status).toBe(404);
  });

  it("what-if names each change it cannot apply", async () => {
    const { status, body } = await call(whatIfRoute.GET as Handler, {
      path: `/api/services/${slug}/whatif?change=${encodeURIComponent("RAG retrieval:50")}&change=${encodeURIComponent("GPU:-5")}&change=${encodeURIComponent("Network:x0.5")}`,
      params: { slug },
    });
    expect(status).toBe(422);
    expect(body.error.fields).toEqual({
      "change.0": expect.stringMatching(/with a sign/),
      "change.1": expect.stringMatching(/no component “GPU”/),
    });
  });

  it("the report comes as Markdown ready for a wiki", async () => {
    const response = await reportRoute.GET(
      new Request(`http://localhost/api/services/${slug}/report?format=md`, {
        headers: { authorization: `Bearer ${await testAdminToken()}` },
      }),
      { params: Promise.resolve({ slug }) },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await response.text();
    expect(text).toMatch(/^# Latency bottleneck analysis: Chat API/);
    expect(text).toContain("## 6. Alert rules in force");
  });
});
