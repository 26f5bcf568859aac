import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import * as optimizationsRoute from "@/app/api/optimizations/route";
import * as bucketsRoute from "@/app/api/prometheus/buckets/route";
import * as proposalsRoute from "@/app/api/proposals/route";
import * as servicesRoute from "@/app/api/services/route";
import * as annotationsRoute from "@/app/api/services/[slug]/annotations/route";
import * as budgetRoute from "@/app/api/services/[slug]/budget/route";
import * as revisionsRoute from "@/app/api/services/[slug]/budget/revisions/route";
import { db } from "@/lib/db/client";
import { SCOPES } from "@/lib/domain/rights";
import { AppError, ERROR_STATUS } from "@/lib/errors";
import { ANONYMOUS, systemActor, type Actor } from "@/lib/services/actor";
import { createUser } from "@/lib/services/auth/users";
import { annotationsBetween, createAnnotation } from "@/lib/services/annotations";
import { getBudget, saveBudget } from "@/lib/services/budgets";
import { createOptimization } from "@/lib/services/optimizations";
import { chatApi } from "@/prisma/seed-data";
import { newUser, sessionCookie, TEST_PASSWORD } from "@/test/credentials";
import { call, type Handler } from "@/test/http";
import { RIGHTS_CASES, fixture } from "@/test/rights-cases";

// With LB_ANONYMOUS_VIEW=true, nobody may view dashboards, and nothing else: every row of the
// rights matrix as an anonymous caller, through the service and through HTTP. Reads that name
// their own histogram (any metric, any labels) are not dashboards.

vi.hoisted(() => {
  process.env.LB_ANONYMOUS_VIEW = "true";
});
afterAll(() => db().$disconnect());

const histogram = {
  preset: "custom",
  metric: "http_request_duration_seconds",
  matchers: { route: "/api/auth/sign-in" },
};
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

  it("authors: an anonymous viewer reads people's names (a token as “API token”), a signed-in one their emails", async () => {
    const slug = `anon-${randomUUID().slice(0, 8)}`;
    expect(
      (
        await call(servicesRoute.POST as Handler, {
          method: "POST",
          json: { ...chatApi.service, slug, stages: chatApi.stages },
        })
      ).status,
    ).toBe(201);
    const created = await createUser({
      db: db(),
      actor: systemActor("tests"),
      input: { email: `ada-${slug}@example.test`, name: "Ada Lovelace", role: "editor", password: TEST_PASSWORD },
    });
    const ada: Actor & { kind: "user" } = {
      kind: "user",
      id: created.id,
      email: created.email,
      name: created.name,
      role: "editor",
    };
    const token: Actor = {
      kind: "token",
      id: randomUUID(),
      name: "ci-deploys-secret-name",
      scopes: [...SCOPES],
      user: ada,
    };
    await createAnnotation({ db: db(), actor: ada, input: { service: slug, text: "by hand" } });
    await createAnnotation({ db: db(), actor: token, input: { service: slug, text: "from CI", kind: "deploy" } });
    await saveBudget({
      db: db(),
      actor: token,
      slug,
      input: { ...(await getBudget({ db: db(), slug })), targetMs: 680 },
    });
    await createOptimization({
      db: db(),
      actor: ada,
      input: { name: `Cache ${slug}`, component: "RAG retrieval", savingMs: -20, costPct: 5 },
    });
    const secrets = [ada.email, "ci-deploys-secret-name"];
    const reads = {
      annotations: () => call(annotationsRoute.GET as Handler, { as: null, params: { slug } }),
      revisions: () => call(revisionsRoute.GET as Handler, { as: null, params: { slug } }),
      budget: () => call(budgetRoute.GET as Handler, { as: null, params: { slug } }),
      optimizations: () => call(optimizationsRoute.GET as Handler, { as: null }),
    };

    const annotations = await reads.annotations();
    expect(annotations.status).toBe(200);
    // The note, the deploy and the budget save's own annotation.
    expect(new Set(annotations.body.map((a: { author: string }) => a.author))).toEqual(
      new Set(["Ada Lovelace", "Ada Lovelace (API token)"]),
    );
    const revisions = await reads.revisions();
    expect(revisions.body[0].author).toBe("Ada Lovelace (API token)");
    expect((await reads.budget()).body.updatedBy).toBe("Ada Lovelace (API token)");
    const optimizations = await reads.optimizations();
    expect(optimizations.body.find((o: { name: string }) => o.name === `Cache ${slug}`).createdBy).toBe("Ada Lovelace");
    for (const [what, read] of Object.entries(reads)) {
      const text = JSON.stringify((await read()).body);
      for (const secret of secrets) expect(text, `${what} shows ${secret} to nobody`).not.toContain(secret);
    }
    // The live views' cached answers (timeline, KPIs, SLO history) serve every viewer alike: names.
    const shared = await annotationsBetween(db(), [slug], 0, Date.now() / 1000 + 60);
    expect(new Set(shared.map((a) => a.author))).toEqual(new Set(["Ada Lovelace", "Ada Lovelace (API token)"]));

    // Signed in: the email, and the token's name, as stored.
    const cookie = await sessionCookie((await newUser("viewer")).email);
    const signedIn = await call(annotationsRoute.GET as Handler, { as: null, headers: { cookie }, params: { slug } });
    expect(new Set(signedIn.body.map((a: { author: string }) => a.author))).toEqual(
      new Set([ada.email, `ci-deploys-secret-name (${ada.email})`]),
    );
    const theirRevisions = await call(revisionsRoute.GET as Handler, {
      as: null,
      headers: { cookie },
      params: { slug },
    });
    expect(theirRevisions.body[0].author).toBe(`${ada.email} (token ci-deploys-secret-name)`);
  });
});
