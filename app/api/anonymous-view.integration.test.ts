import { afterAll, describe, expect, inject, it, vi } from "vitest";
import * as bucketsRoute from "@/app/api/prometheus/buckets/route";
import * as proposalsRoute from "@/app/api/proposals/route";
import * as servicesRoute from "@/app/api/services/route";
import { db } from "@/lib/db/client";
import { AppError, ERROR_STATUS } from "@/lib/errors";
import { ANONYMOUS } from "@/lib/services/actor";
import { call, type Handler } from "@/test/http";
import { RIGHTS_CASES, fixture } from "@/test/rights-cases";

// With LB_ANONYMOUS_VIEW=true, nobody may view dashboards, and nothing else: every row of the
// rights matrix as an anonymous caller, through the service and through HTTP. Reads that name
// their own histogram (any metric, any labels) are not dashboards.

vi.hoisted(() => {
  process.env.LB_ANONYMOUS_VIEW = "true";
});
afterAll(() => db().$disconnect());

const histogram = { preset: "custom", metric: "http_request_duration_seconds", matchers: { route: "/api/auth/sign-in" } };
const draft = { targetMs: 700, stages: [{ name: "App", components: [{ name: "sign-in", source: histogram }] }] };

describe(`anonymous viewing on (${inject("databaseKind")})`, () => {
  it("an anonymous caller may view dashboards", async () => {
    expect((await call(servicesRoute.GET as Handler, { as: null })).status).toBe(200);
  });

  it("but may not read a histogram it names: the bucket preview and a draft's proposal answer 401", async () => {
    const buckets = await call(bucketsRoute.POST as Handler, { as: null, method: "POST", json: { source: histogram } });
    expect(buckets.status, JSON.stringify(buckets.body)).toBe(401);
    expect(buckets.body.error.message).toMatch(/Sign in/);
    const proposal = await call(proposalsRoute.POST as Handler, { as: null, method: "POST", json: draft });
    expect(proposal.status, JSON.stringify(proposal.body)).toBe(401);
  });

  for (const [key, row] of Object.entries(RIGHTS_CASES)) {
    it(`${key} (${row.action}) as nobody: ${row.action === "read" ? "allowed" : "401"}`, async () => {
      const f = await fixture(ANONYMOUS, row.needs);
      const outcome = await row.service(ANONYMOUS, f).then(
        () => "allowed" as const,
        (error: unknown) => error,
      );
      const { handler, ...request } = row.http(f);
      const { status, body } = await call(handler, { ...request, as: null });
      const where = `${key}: ${JSON.stringify(body)}`;
      if (row.action === "read") {
        if (row.allowedError) {
          expect((outcome as AppError).code, key).toBe(row.allowedError);
          expect(status, where).toBe(ERROR_STATUS[row.allowedError]);
        } else {
          expect(outcome, key).toBe("allowed");
          expect(status, where).toBeLessThan(300);
        }
      } else {
        expect(outcome, key).toBeInstanceOf(AppError);
        expect((outcome as AppError).code, key).toBe("UNAUTHORIZED");
        expect(status, where).toBe(401);
      }
    });
  }
});
