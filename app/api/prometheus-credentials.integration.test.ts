import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import * as alertsRoute from "@/app/api/alerts/route";
import * as healthRoute from "@/app/api/health/route";
import * as servicesRoute from "@/app/api/services/route";
import * as capacityRoute from "@/app/api/services/[slug]/capacity/route";
import * as kpisRoute from "@/app/api/services/[slug]/kpis/route";
import * as reportRoute from "@/app/api/services/[slug]/report/route";
import * as slosRoute from "@/app/api/services/[slug]/slos/route";
import * as timelineRoute from "@/app/api/services/[slug]/timeline/route";
import * as waterfallRoute from "@/app/api/services/[slug]/waterfall/route";
import * as whatifRoute from "@/app/api/services/[slug]/whatif/route";
import * as statusRoute from "@/app/api/status/route";
import * as metricsRoute from "@/app/metrics/route";
import { db } from "@/lib/db/client";
import { chatApi } from "@/prisma/seed-data";
import { call, type Handler } from "@/test/http";

// PROMETHEUS_URL may carry a password (Node sends the userinfo as basic auth): no answer names
// it, to anyone. Port 1 on the loopback refuses connections, so every live view meets the error
// path (the client's own message first, then the open circuit's).

const PASSWORD = "s3cretpw";
const METRICS_TOKEN = "metrics-token-for-credential-tests";
vi.hoisted(() => {
  process.env.PROMETHEUS_URL = "http://reader:s3cretpw@127.0.0.1:1";
  process.env.LB_ANONYMOUS_VIEW = "true";
  process.env.LB_METRICS_TOKEN = "metrics-token-for-credential-tests";
});
afterAll(() => db().$disconnect());

describe(`a PROMETHEUS_URL with a password (${inject("databaseKind")})`, () => {
  it("appears in no answer of the health check, the live views, the alerts or /metrics", async () => {
    const slug = `creds-${randomUUID().slice(0, 8)}`;
    const created = await call(servicesRoute.POST as Handler, {
      method: "POST",
      json: { ...chatApi.service, slug, stages: chatApi.stages },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const slo = await call(slosRoute.POST as Handler, { method: "POST", params: { slug }, json: chatApi.slos![0] });
    expect(slo.status, JSON.stringify(slo.body)).toBe(201);

    const params = { slug };
    const reads: Record<string, (as: string | null | undefined) => ReturnType<typeof call>> = {
      health: (as) => call(healthRoute.GET as Handler, { as }),
      waterfall: (as) => call(waterfallRoute.GET as Handler, { as, params }),
      timeline: (as) => call(timelineRoute.GET as Handler, { as, params }),
      slos: (as) => call(slosRoute.GET as Handler, { as, params }),
      kpis: (as) => call(kpisRoute.GET as Handler, { as, params }),
      capacity: (as) => call(capacityRoute.GET as Handler, { as, params }),
      report: (as) => call(reportRoute.GET as Handler, { as, params }),
      whatif: (as) => call(whatifRoute.GET as Handler, { as, params }),
      status: (as) => call(statusRoute.GET as Handler, { as }),
      alerts: (as) => call(alertsRoute.GET as Handler, { as, path: `/api/alerts?service=${slug}` }),
    };
    // Twice each: the first meets the refused connection, the second the open circuit.
    const answers: string[] = [];
    for (const round of [1, 2])
      for (const [what, read] of Object.entries(reads))
        for (const as of [null, undefined]) {
          const { status, body } = await read(as);
          const text = JSON.stringify(body);
          expect(status, `${what} (${round}): ${text}`).toBeLessThan(500 + (what === "health" ? 4 : 0));
          answers.push(`${what}: ${text}`);
        }
    const health = (await reads.health!(null)).body;
    expect(health).toMatchObject({ prometheus: "down", prometheusError: expect.stringMatching(/Prometheus/) });
    const waterfall = (await reads.waterfall!(null)).body;
    expect(waterfall.error).toMatch(/Prometheus/);

    for (const answer of answers)
      for (const secret of [PASSWORD, "reader"]) expect(answer).not.toContain(secret);

    const metrics = await call(metricsRoute.GET as Handler, {
      as: null,
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('latency_budgets_prometheus_circuit_open{prometheus="http://127.0.0.1:1"} 1');
    expect(metrics.body).not.toContain(PASSWORD);
  });
});
