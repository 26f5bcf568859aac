import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import * as alertsRoute from "@/app/api/alerts/route";
import * as notificationsRoute from "@/app/api/alerts/notifications/route";
import * as webhookRoute from "@/app/api/alertmanager/webhook/route";
import * as allRulesRoute from "@/app/api/rules.yaml/route";
import * as rulesRoute from "@/app/api/services/[slug]/rules.yaml/route";
import * as servicesRoute from "@/app/api/services/route";
import * as slosRoute from "@/app/api/services/[slug]/slos/route";
import { db } from "@/lib/db/client";
import { chatApi } from "@/prisma/seed-data";
import { call, type Handler } from "@/test/http";

// Alerting through the real route handlers and database: the rule files, the webhook Alertmanager
// posts to, and the notifications it leaves.

const TOKEN = "alerts-test-token-0123456789";
process.env.LB_ALERTMANAGER_TOKEN = TOKEN;
afterAll(() => db().$disconnect());

async function newService() {
  const slug = `alerts-${randomUUID().slice(0, 8)}`;
  const created = await call(servicesRoute.POST as Handler, {
    method: "POST",
    json: { ...chatApi.service, slug, stages: chatApi.stages, endToEndSource: chatApi.service.endToEndSource ?? null },
  });
  expect(created.status).toBe(201);
  return slug;
}

const alert = (slug: string, overrides: Record<string, unknown> = {}) => ({
  status: "firing",
  labels: {
    alertname: "ComponentOverBudget",
    service: slug,
    stage: "RAG",
    component: "RAG retrieval",
    severity: "ticket",
  },
  annotations: {
    summary: "RAG retrieval p95 is 412ms, over its 120 ms budget",
    dashboard: `http://localhost:3000/services/${slug}/waterfall?quantile=p95&compare=1h&at=1795347954`,
  },
  startsAt: "2026-11-22T10:00:00.000Z",
  endsAt: "0001-01-01T00:00:00Z",
  generatorURL: "http://prometheus/graph",
  fingerprint: randomUUID().replace(/-/g, "").slice(0, 16),
  ...overrides,
});

const post = (body: unknown, authorization = `Bearer ${TOKEN}`) =>
  call(webhookRoute.POST as Handler, { method: "POST", json: body, headers: { authorization } });

describe(`alerting API (${inject("databaseKind")})`, () => {
  it("the webhook refuses a caller without the token before reading the body", async () => {
    const slug = await newService();
    const body = { version: "4", status: "firing", receiver: "x", alerts: [alert(slug)] };
    for (const authorization of ["", "Bearer nope", `Basic ${TOKEN}`]) {
      const { status, body: answer } = await post(body, authorization);
      expect(status).toBe(401);
      expect(answer.error.message).toContain("Authorization: Bearer");
      expect(JSON.stringify(answer)).not.toContain(TOKEN);
    }
    const notifications = await call(notificationsRoute.GET as Handler, {
      path: `/api/alerts/notifications?service=${slug}`,
    });
    expect(notifications.body).toEqual([]);
  });

  it("stores each alert state once and lists them newest first, linked at the alert's start", async () => {
    const slug = await newService();
    const firing = alert(slug);
    const payload = { version: "4", status: "firing", receiver: "latency-budgets", alerts: [firing] };
    expect((await post(payload)).body).toEqual({ received: 1, stored: 1 });
    // Alertmanager re-sends the group at every group_interval: the same state is not stored twice.
    expect((await post(payload)).body).toEqual({ received: 1, stored: 0 });
    const resolved = { ...firing, status: "resolved", endsAt: "2026-11-22T10:07:00.000Z" };
    expect((await post({ ...payload, status: "resolved", alerts: [resolved] })).body).toEqual({
      received: 1,
      stored: 1,
    });

    const { status, body } = await call(notificationsRoute.GET as Handler, {
      path: `/api/alerts/notifications?service=${slug}`,
    });
    expect(status).toBe(200);
    expect(body).toHaveLength(2);
    expect(body.map((n: { status: string }) => n.status).sort()).toEqual(["firing", "resolved"]);
    const first = body.find((n: { status: string }) => n.status === "firing");
    expect(first).toMatchObject({
      service: slug,
      alertname: "ComponentOverBudget",
      severity: "ticket",
      startsAt: "2026-11-22T10:00:00.000Z",
      endsAt: null,
      summary: "RAG retrieval p95 is 412ms, over its 120 ms budget",
    });
    // Pinned at Alertmanager's startsAt (10:00:00 UTC), not the annotation's evaluation time.
    expect(first.dashboardUrl).toBe(
      `http://localhost:3000/services/${slug}/waterfall?quantile=p95&compare=1h&at=${Date.parse("2026-11-22T10:00:00Z") / 1000}`,
    );
    const unknown = await call(notificationsRoute.GET as Handler, {
      path: "/api/alerts/notifications?service=no-such",
    });
    expect(unknown.status).toBe(404);
  });

  it("serves each service's rules and all of them, as a rule file or a PrometheusRule", async () => {
    const slug = await newService();
    await call(slosRoute.POST as Handler, {
      method: "POST",
      params: { slug },
      json: {
        name: "TTFT under 700 ms",
        source: { preset: "generic", metric: "llm_request_ttft_seconds", matchers: { service: slug } },
        thresholdMs: 700,
        objective: 0.99,
      },
    });
    const file = await call(rulesRoute.GET as Handler, { path: `/api/services/${slug}/rules.yaml`, params: { slug } });
    expect(file.status).toBe(200);
    const groups = (
      parse(file.body) as { groups: { name: string; rules: { alert?: string; labels: Record<string, string> }[] }[] }
    ).groups;
    expect(groups.map((g) => g.name)).toEqual([
      `latency_budgets/${slug}/slo/TTFT under 700 ms`,
      `latency_budgets/${slug}/budget`,
    ]);
    const components = groups[1]!.rules.filter((r) => r.alert === "ComponentOverBudget").map((r) => r.labels.component);
    expect(components).toContain("RAG retrieval");
    // Prometheus is not configured here: the rule says the threshold was assumed to be a bound.
    expect(file.body).toContain("threshold_counting: assumed");

    const wrapped = await call(rulesRoute.GET as Handler, {
      path: `/api/services/${slug}/rules.yaml?format=prometheusrule&download=1`,
      params: { slug },
    });
    expect(parse(wrapped.body)).toMatchObject({ apiVersion: "monitoring.coreos.com/v1", kind: "PrometheusRule" });
    const all = await call(allRulesRoute.GET as Handler, { path: "/api/rules.yaml" });
    expect(all.body).toContain(`latency_budgets/${slug}/budget`);

    const badFormat = await call(rulesRoute.GET as Handler, {
      path: `/api/services/${slug}/rules.yaml?format=xml`,
      params: { slug },
    });
    expect(badFormat.status).toBe(422);
    expect(badFormat.body.error.fields).toEqual({ format: "format is prometheus (a rule file) or prometheusrule" });
    const badFor = await call(rulesRoute.GET as Handler, {
      path: `/api/services/${slug}/rules.yaml?for=5x`,
      params: { slug },
    });
    expect(badFor.status).toBe(422);
    const missing = await call(rulesRoute.GET as Handler, {
      path: "/api/services/no-such/rules.yaml",
      params: { slug: "no-such" },
    });
    expect(missing.status).toBe(404);
  });

  it("GET /api/alerts says when no Prometheus is configured instead of claiming all is quiet", async () => {
    const { status, body } = await call(alertsRoute.GET as Handler, { path: "/api/alerts" });
    expect(status).toBe(200);
    expect(body).toEqual({
      source: "prometheus",
      rulesLoaded: false,
      rulesError: null,
      rulesLeftOut: [],
      alerts: [],
      error: "Prometheus is not configured: set PROMETHEUS_URL.",
    });
  });
});
