// The rights matrix's one table: every guarded service function (a mutation, or a read with
// rights beyond viewing), how to call it with valid input, and the HTTP request that reaches it.
// lib/services/rights.integration.test.ts runs each row as every kind of actor through the
// service; app/api/rights.integration.test.ts runs it through the route handlers.
import { randomUUID } from "node:crypto";
import * as alertmanagerWebhook from "@/app/api/alertmanager/webhook/route";
import * as annotationRoute from "@/app/api/annotations/[id]/route";
import * as annotationsRoute from "@/app/api/annotations/route";
import * as auditRoute from "@/app/api/audit/route";
import * as discoveryRoute from "@/app/api/discovery/histograms/route";
import * as examplesRoute from "@/app/api/examples/route";
import * as proposalsRoute from "@/app/api/proposals/route";
import * as bucketsRoute from "@/app/api/prometheus/buckets/route";
import * as capacityPlanRoute from "@/app/api/capacity/plan/route";
import * as capacityQueueRoute from "@/app/api/capacity/queue/route";
import * as experimentImport from "@/app/api/experiments/[id]/import-prometheus/route";
import * as experimentSamples from "@/app/api/experiments/[id]/samples/route";
import * as experimentStatus from "@/app/api/experiments/[id]/status/route";
import * as experimentsRoute from "@/app/api/experiments/route";
import * as opensloRoute from "@/app/api/openslo/route";
import * as optimizationsRoute from "@/app/api/optimizations/route";
import * as budgetRoute from "@/app/api/services/[slug]/budget/route";
import * as restoreRoute from "@/app/api/services/[slug]/budget/revisions/[version]/restore/route";
import * as serviceRoute from "@/app/api/services/[slug]/route";
import * as sloRoute from "@/app/api/services/[slug]/slos/[id]/route";
import * as slosRoute from "@/app/api/services/[slug]/slos/route";
import * as servicesRoute from "@/app/api/services/route";
import * as tokenRoute from "@/app/api/tokens/[id]/route";
import * as tokensRoute from "@/app/api/tokens/route";
import * as mePasswordRoute from "@/app/api/me/password/route";
import * as userPasswordRoute from "@/app/api/users/[id]/password/route";
import * as userRoute from "@/app/api/users/[id]/route";
import * as userSessionsRoute from "@/app/api/users/[id]/sessions/route";
import * as usersRoute from "@/app/api/users/route";
import { db } from "@/lib/db/client";
import type { Action } from "@/lib/domain/rights";
import type { ErrorCode } from "@/lib/errors";
import { systemActor, userOf, type Actor } from "@/lib/services/actor";
import { receiveAlertmanagerWebhook } from "@/lib/services/alerts";
import { createAnnotation, deleteAnnotation } from "@/lib/services/annotations";
import { listAudit } from "@/lib/services/audit";
import { createToken, listTokens, revokeToken } from "@/lib/services/auth/tokens";
import { calculatePlan, calculateQueue } from "@/lib/services/capacity";
import { discoverHistograms } from "@/lib/services/discovery";
import { addExamples, EXAMPLE_SLUGS } from "@/lib/services/examples";
import { proposeDraft } from "@/lib/services/proposal";
import { changeOwnPassword, endSessions, resetPassword } from "@/lib/services/auth/credentials";
import { createUser, listUsers, updateUser } from "@/lib/services/auth/users";
import { getBudget, restoreRevision, saveBudget } from "@/lib/services/budgets";
import { createExperiment, setExperimentStatus, uploadSamples } from "@/lib/services/experiments/experiments";
import { importFromPrometheus } from "@/lib/services/experiments/from-prometheus";
import { importOpenSlo } from "@/lib/services/openslo";
import { createOptimization } from "@/lib/services/optimizations";
import { createService, deleteService } from "@/lib/services/services";
import { createSlo, deleteSlo, getBucketBounds, updateSlo } from "@/lib/services/slos";
import { chatApi } from "@/prisma/seed-data";
import { SEED_EXPERIMENT } from "@/prisma/seed-experiment";
import { TEST_PASSWORD } from "./credentials";
import { openSloDocument } from "./openslo-documents";
import type { Call, Handler } from "./http";

const system = systemActor("rights-matrix");
const proposalDraft = {
  targetMs: 700,
  stages: [
    {
      name: "LLM",
      components: [
        { name: "llm", source: { preset: "vllm", metric: "vllm:time_to_first_token_seconds", matchers: {} } },
      ],
    },
  ],
};
const bucketSource = { preset: "custom", metric: "llm_request_ttft_seconds", matchers: {} };
const unique = () => randomUUID().slice(0, 8);

/** What a row needs to exist before it runs; made fresh for every actor. */
type Fixture = {
  slug: string;
  annotationId: string;
  sloId: string;
  experimentId: string;
  experimentVersion: number;
  userId: string;
  tokenId: string;
  /** How many example services were taken away (without an audit entry) so they can be added again. */
  examplesRemoved: number;
};

async function fixture(actor: Actor, needs: (keyof Fixture)[]): Promise<Fixture> {
  const f: Partial<Fixture> = {};
  if (needs.some((need) => ["slug", "sloId", "experimentId", "experimentVersion", "annotationId"].includes(need))) {
    f.slug = `rights-${unique()}`;
    await createService({
      db: db(),
      actor: system,
      input: { ...chatApi.service, slug: f.slug, stages: chatApi.stages },
    });
  }
  if (needs.includes("sloId"))
    f.sloId = (await createSlo({ db: db(), actor: system, slug: f.slug!, input: chatApi.slos![0] })).id;
  if (needs.includes("experimentId")) {
    const experiment = await createExperiment({
      db: db(),
      actor: system,
      input: { ...SEED_EXPERIMENT, service: f.slug },
    });
    f.experimentId = experiment.id;
    f.experimentVersion = experiment.version;
  }
  if (needs.includes("annotationId"))
    f.annotationId = (
      await createAnnotation({ db: db(), actor: system, input: { service: f.slug, text: "to delete", kind: "deploy" } })
    ).id;
  if (needs.includes("userId")) {
    const email = `promote-${unique()}@example.test`;
    f.userId = (
      await createUser({
        db: db(),
        actor: system,
        input: { email, name: "Promote me", role: "viewer", password: "a long enough password" },
      })
    ).id;
  }
  if (needs.includes("examplesRemoved"))
    f.examplesRemoved = (await db().service.deleteMany({ where: { slug: { in: EXAMPLE_SLUGS } } })).count;
  if (needs.includes("tokenId")) {
    // A token of the actor's own user (or of a fresh user for nobody), so an owner may revoke it.
    const owner = userOf(actor) ?? (await fixtureOwner());
    f.tokenId = (
      await createToken({ db: db(), actor: { kind: "user", ...owner }, input: { name: "to revoke", scopes: ["read"] } })
    ).id;
  }
  return f as Fixture;
}

async function fixtureOwner() {
  const email = `owner-${unique()}@example.test`;
  const user = await createUser({
    db: db(),
    actor: system,
    input: { email, name: "Owner", role: "viewer", password: "a long enough password" },
  });
  return { id: user.id, email: user.email, name: user.name, role: "viewer" as const };
}

const csv =
  "variant,ttft_ms,e2e_ms,cost_usd,tokens,quality\ncontrol,300,900,0.002,400,0.9\ntreatment,280,850,0.002,400,0.9\n";
const newServiceInput = () => ({ slug: `made-${unique()}`, name: "Made in the matrix", targetMs: 700, stages: [] });
const experimentInput = (slug: string) => ({ ...SEED_EXPERIMENT, name: `Matrix ${unique()}`, service: slug });
/** An Alertmanager webhook delivery (payload v4) of one firing alert of the service. */
export const alertPayload = (slug: string) => ({
  version: "4",
  status: "firing",
  receiver: "latency-budgets",
  groupLabels: {},
  commonLabels: {},
  commonAnnotations: {},
  externalURL: "http://alertmanager",
  alerts: [
    {
      status: "firing",
      labels: { alertname: "EndToEndOverTarget", service: slug, quantile: "0.95" },
      annotations: {},
      startsAt: new Date().toISOString(),
      endsAt: "0001-01-01T00:00:00Z",
      fingerprint: unique(),
    },
  ],
});

const ownPasswordChange = { currentPassword: TEST_PASSWORD, newPassword: "the matrix changed this password" };
const planInput = { targetRps: 50, avgLatencyS: 2, maxConcurrentPerGpu: 8, targetUtilization: 0.8 };
const queueInput = { arrivalRps: 1, serviceTimeS: 1, servers: 2 };

export type RightsCase = {
  /** The row of the rights table (lib/domain/rights.ts) the function must be checked against. */
  action: Action;
  needs: (keyof Fixture)[];
  /** The call through the service, with valid input. */
  service: (actor: Actor, f: Fixture) => Promise<unknown>;
  /** The same through its route handler. */
  http: (f: Fixture) => Call & { handler: Handler };
  /** An allowed call that still cannot finish here (no Prometheus in this suite): this code, after the check. */
  allowedError?: ErrorCode;
};

const handler = (h: unknown) => h as Handler;

/** Keyed by "<file under lib/services>#<export>": the matrix test fails on a guarded function missing here. */
export const RIGHTS_CASES: Record<string, RightsCase> = {
  "services#createService": {
    action: "service.create",
    needs: [],
    service: (actor) => createService({ db: db(), actor, input: newServiceInput() }),
    http: () => ({ handler: handler(servicesRoute.POST), method: "POST", json: newServiceInput() }),
  },
  "services#deleteService": {
    action: "service.delete",
    needs: ["slug"],
    service: (actor, f) => deleteService({ db: db(), actor, slug: f.slug }),
    http: (f) => ({ handler: handler(serviceRoute.DELETE), method: "DELETE", params: { slug: f.slug } }),
  },
  // Each caller finds a database without the examples (their rows removed, unaudited, by the fixture).
  "examples#addExamples": {
    action: "examples.add",
    needs: ["examplesRemoved"],
    service: (actor) => addExamples({ db: db(), actor }),
    http: () => ({ handler: handler(examplesRoute.POST), method: "POST" }),
  },
  "budgets#saveBudget": {
    action: "budget.save",
    needs: ["slug"],
    service: async (actor, f) =>
      saveBudget({
        db: db(),
        actor,
        slug: f.slug,
        input: { ...(await getBudget({ db: db(), slug: f.slug })), targetMs: 690 },
      }),
    http: (f) => ({
      handler: handler(budgetRoute.PUT),
      method: "PUT",
      params: { slug: f.slug },
      json: { ...chatApi.service, stages: chatApi.stages, version: 1, targetMs: 690 },
    }),
  },
  "budgets#restoreRevision": {
    action: "budget.restore",
    needs: ["slug"],
    service: (actor, f) => restoreRevision({ db: db(), actor, slug: f.slug, revision: 1, input: { version: 1 } }),
    http: (f) => ({
      handler: handler(restoreRoute.POST),
      method: "POST",
      params: { slug: f.slug, version: "1" },
      json: { version: 1 },
    }),
  },
  "optimizations#createOptimization": {
    action: "optimization.create",
    needs: [],
    service: (actor) =>
      createOptimization({
        db: db(),
        actor,
        input: { name: `Matrix ${unique()}`, component: "LLM", savingMs: 10, costPct: 1 },
      }),
    http: () => ({
      handler: handler(optimizationsRoute.POST),
      method: "POST",
      json: { name: `Matrix ${unique()}`, component: "LLM", savingMs: 10, costPct: 1 },
    }),
  },
  "slos#createSlo": {
    action: "slo.create",
    needs: ["slug"],
    service: (actor, f) => createSlo({ db: db(), actor, slug: f.slug, input: chatApi.slos![1] }),
    http: (f) => ({
      handler: handler(slosRoute.POST),
      method: "POST",
      params: { slug: f.slug },
      json: chatApi.slos![1],
    }),
  },
  "slos#updateSlo": {
    action: "slo.update",
    needs: ["sloId"],
    service: (actor, f) =>
      updateSlo({
        db: db(),
        actor,
        slug: f.slug,
        id: f.sloId,
        input: { ...chatApi.slos![0], objective: 0.995, version: 1 },
      }),
    http: (f) => ({
      handler: handler(sloRoute.PUT),
      method: "PUT",
      params: { slug: f.slug, id: f.sloId },
      json: { ...chatApi.slos![0], objective: 0.995, version: 1 },
    }),
  },
  "slos#deleteSlo": {
    action: "slo.delete",
    needs: ["sloId"],
    service: (actor, f) => deleteSlo({ db: db(), actor, slug: f.slug, id: f.sloId }),
    http: (f) => ({ handler: handler(sloRoute.DELETE), method: "DELETE", params: { slug: f.slug, id: f.sloId } }),
  },
  "openslo#importOpenSlo": {
    action: "openslo.import",
    needs: ["slug"],
    service: (actor, f) => importOpenSlo({ db: db(), actor, text: openSloDocument({ service: f.slug }) }),
    http: (f) => ({
      handler: handler(opensloRoute.POST),
      method: "POST",
      body: openSloDocument({ service: f.slug }),
      headers: { "content-type": "application/yaml" },
    }),
  },
  "experiments/experiments#createExperiment": {
    action: "experiment.create",
    needs: ["slug"],
    service: (actor, f) => createExperiment({ db: db(), actor, input: experimentInput(f.slug) }),
    http: (f) => ({ handler: handler(experimentsRoute.POST), method: "POST", json: experimentInput(f.slug) }),
  },
  "experiments/experiments#setExperimentStatus": {
    action: "experiment.status",
    needs: ["experimentId"],
    service: (actor, f) =>
      setExperimentStatus({
        db: db(),
        actor,
        id: f.experimentId,
        input: { version: f.experimentVersion, status: "stopped" },
      }),
    http: (f) => ({
      handler: handler(experimentStatus.PUT),
      method: "PUT",
      params: { id: f.experimentId },
      json: { version: f.experimentVersion, status: "stopped" },
    }),
  },
  "experiments/experiments#uploadSamples": {
    action: "experiment.upload",
    needs: ["experimentId"],
    service: (actor, f) =>
      uploadSamples({
        db: db(),
        actor,
        id: f.experimentId,
        body: new Blob([csv]).stream() as ReadableStream<Uint8Array>,
        contentType: "text/csv",
        query: {},
      }),
    http: (f) => ({
      handler: handler(experimentSamples.POST),
      method: "POST",
      params: { id: f.experimentId },
      body: csv,
      headers: { "content-type": "text/csv" },
    }),
  },
  "experiments/from-prometheus#importFromPrometheus": {
    action: "experiment.import",
    needs: ["experimentId"],
    service: (actor, f) => importFromPrometheus({ db: db(), prom: null, actor, id: f.experimentId, input: {} }),
    http: (f) => ({ handler: handler(experimentImport.POST), method: "POST", params: { id: f.experimentId } }),
    allowedError: "UNAVAILABLE",
  },
  "alerts#receiveAlertmanagerWebhook": {
    action: "alert.receive",
    needs: ["slug"],
    service: (actor, f) => receiveAlertmanagerWebhook({ db: db(), actor, input: alertPayload(f.slug) }),
    http: (f) => ({ handler: handler(alertmanagerWebhook.POST), method: "POST", json: alertPayload(f.slug) }),
  },
  "auth/tokens#createToken": {
    action: "token.create",
    needs: [],
    service: (actor) => createToken({ db: db(), actor, input: { name: "matrix", scopes: ["read"] } }),
    http: () => ({ handler: handler(tokensRoute.POST), method: "POST", json: { name: "matrix", scopes: ["read"] } }),
  },
  "auth/tokens#revokeToken": {
    action: "token.revoke",
    needs: ["tokenId"],
    service: (actor, f) => revokeToken({ db: db(), actor, id: f.tokenId }),
    http: (f) => ({ handler: handler(tokenRoute.DELETE), method: "DELETE", params: { id: f.tokenId } }),
  },
  "annotations#createAnnotation": {
    action: "annotation.create",
    needs: ["slug"],
    service: (actor, f) =>
      createAnnotation({ db: db(), actor, input: { service: f.slug, text: "Deployed v2.3.1", tags: ["deploy"] } }),
    http: (f) => ({
      handler: handler(annotationsRoute.POST),
      method: "POST",
      json: { service: f.slug, text: "Deployed v2.3.1", tags: ["deploy"] },
    }),
  },
  "annotations#deleteAnnotation": {
    action: "annotation.delete",
    needs: ["annotationId"],
    service: (actor, f) => deleteAnnotation({ db: db(), actor, id: f.annotationId }),
    http: (f) => ({ handler: handler(annotationRoute.DELETE), method: "DELETE", params: { id: f.annotationId } }),
  },
  "auth/tokens#listTokens": {
    action: "token.list",
    needs: [],
    service: (actor) => listTokens({ db: db(), actor }),
    http: () => ({ handler: handler(tokensRoute.GET), method: "GET" }),
  },
  "auth/users#listUsers": {
    action: "user.list",
    needs: [],
    service: (actor) => listUsers({ db: db(), actor }),
    http: () => ({ handler: handler(usersRoute.GET), method: "GET" }),
  },
  "auth/users#createUser": {
    action: "user.create",
    needs: [],
    service: (actor) =>
      createUser({
        db: db(),
        actor,
        input: {
          email: `new-${unique()}@example.test`,
          name: "New",
          role: "viewer",
          password: "a long enough password",
        },
      }),
    http: () => ({
      handler: handler(usersRoute.POST),
      method: "POST",
      json: { email: `new-${unique()}@example.test`, name: "New", role: "viewer", password: "a long enough password" },
    }),
  },
  "auth/users#updateUser": {
    action: "user.role",
    needs: ["userId"],
    service: (actor, f) => updateUser({ db: db(), actor, id: f.userId, input: { role: "editor", active: false } }),
    http: (f) => ({
      handler: handler(userRoute.PATCH),
      method: "PATCH",
      params: { id: f.userId },
      json: { role: "editor", active: false },
    }),
  },
  "auth/credentials#resetPassword": {
    action: "user.password",
    needs: ["userId"],
    service: (actor, f) =>
      resetPassword({ db: db(), actor, id: f.userId, input: { password: "a brand new password" } }),
    http: (f) => ({
      handler: handler(userPasswordRoute.POST),
      method: "POST",
      params: { id: f.userId },
      json: { password: "a brand new password" },
    }),
  },
  "auth/credentials#endSessions": {
    action: "user.sessions",
    needs: ["userId"],
    service: (actor, f) => endSessions({ db: db(), actor, id: f.userId }),
    http: (f) => ({ handler: handler(userSessionsRoute.DELETE), method: "DELETE", params: { id: f.userId } }),
  },
  // Each signed-in matrix user changes their own password once (from the tests' password).
  "auth/credentials#changeOwnPassword": {
    action: "me.password",
    needs: [],
    service: (actor) => changeOwnPassword({ db: db(), actor, input: ownPasswordChange, address: "192.0.2.99" }),
    http: () => ({ handler: handler(mePasswordRoute.POST), method: "POST", json: ownPasswordChange }),
  },
  // Lists every histogram name and label value in Prometheus: for people who build budgets.
  "discovery#discoverHistograms": {
    action: "discovery.read",
    needs: [],
    service: (actor) => discoverHistograms({ prom: null, actor, query: {} }),
    http: () => ({ handler: handler(discoveryRoute.GET), method: "GET" }),
    allowedError: "UNAVAILABLE",
  },
  "audit#listAudit": {
    action: "audit.read",
    needs: [],
    service: (actor) => listAudit({ db: db(), actor }),
    http: () => ({ handler: handler(auditRoute.GET), method: "GET" }),
  },
  // Calculations store nothing: POSTs only for their body, allowed to whoever may view.
  "capacity#calculatePlan": {
    action: "read",
    needs: [],
    service: (actor) => calculatePlan({ actor, input: planInput }),
    http: () => ({ handler: handler(capacityPlanRoute.POST), method: "POST", json: planInput }),
  },
  "proposal#proposeDraft": {
    action: "histogram.read",
    needs: [],
    service: (actor) => proposeDraft({ prom: null, actor, input: proposalDraft }),
    http: () => ({ handler: handler(proposalsRoute.POST), method: "POST", json: proposalDraft }),
    allowedError: "UNAVAILABLE",
  },
  // The bucket preview names any histogram: a signed-in person or a token with read, never anonymous.
  "slos#getBucketBounds": {
    action: "histogram.read",
    needs: [],
    service: (actor) => getBucketBounds({ prom: null, actor, input: { source: bucketSource } }),
    http: () => ({ handler: handler(bucketsRoute.POST), method: "POST", json: { source: bucketSource } }),
    allowedError: "UNAVAILABLE",
  },
  "capacity#calculateQueue": {
    action: "read",
    needs: [],
    service: (actor) => calculateQueue({ actor, input: queueInput }),
    http: () => ({ handler: handler(capacityQueueRoute.POST), method: "POST", json: queueInput }),
  },
};

export { fixture };
