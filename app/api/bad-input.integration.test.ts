import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as annotationRoute from "@/app/api/annotations/[id]/route";
import * as annotationsRoute from "@/app/api/annotations/route";
import * as auditRoute from "@/app/api/audit/route";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as capacityPlanRoute from "@/app/api/capacity/plan/route";
import * as discoveryRoute from "@/app/api/discovery/histograms/route";
import * as proposalsRoute from "@/app/api/proposals/route";
import * as capacityQueueRoute from "@/app/api/capacity/queue/route";
import * as experimentsRoute from "@/app/api/experiments/route";
import * as importRoute from "@/app/api/experiments/[id]/import-prometheus/route";
import * as samplesRoute from "@/app/api/experiments/[id]/samples/route";
import * as statusRoute from "@/app/api/experiments/[id]/status/route";
import * as optimizationsRoute from "@/app/api/optimizations/route";
import * as bucketsRoute from "@/app/api/prometheus/buckets/route";
import * as servicesRoute from "@/app/api/services/route";
import * as budgetRoute from "@/app/api/services/[slug]/budget/route";
import * as restoreRoute from "@/app/api/services/[slug]/budget/revisions/[version]/restore/route";
import * as slosRoute from "@/app/api/services/[slug]/slos/route";
import * as sloRoute from "@/app/api/services/[slug]/slos/[id]/route";
import * as webhookRoute from "@/app/api/alertmanager/webhook/route";
import * as openSloRoute from "@/app/api/openslo/route";
import * as setupRoute from "@/app/api/setup/route";
import * as tokenRoute from "@/app/api/tokens/[id]/route";
import * as tokensRoute from "@/app/api/tokens/route";
import * as mePasswordRoute from "@/app/api/me/password/route";
import * as userPasswordRoute from "@/app/api/users/[id]/password/route";
import * as userRoute from "@/app/api/users/[id]/route";
import * as userSessionsRoute from "@/app/api/users/[id]/sessions/route";
import * as usersRoute from "@/app/api/users/route";
import { newUser, sessionCookie, TEST_PASSWORD } from "@/test/credentials";
import { stringify as toYaml } from "yaml";
import { db } from "@/lib/db/client";
import { chatApi } from "@/prisma/seed-data";
import { withClient } from "@/test/databases";
import { call, type Handler } from "@/test/http";
import {
  amongEmptyParams,
  badMatchers,
  badName,
  badText,
  notAnObject,
  notJson,
  notNumber,
  notText,
  offSiteCallback,
  outside,
  tooLong,
  withLineSeparator,
  withLoneSurrogate,
  withNul,
} from "@/test/invalid-inputs";

// Every mutating endpoint, driven with generated invalid input against the real database: each
// answer is a 4xx with a message a person can read, never a 5xx, and afterwards every stored row
// is byte-for-byte what it was. RUNS per endpoint × 25 endpoints ≥ 21,000 inputs per database.
const RUNS = Number(process.env.LB_FUZZ_RUNS ?? 850);
const WEBHOOK_TOKEN = "fuzz-token-0123456789abcdef";
process.env.LB_ALERTMANAGER_TOKEN = WEBHOOK_TOKEN;

type Case = {
  body?: BodyInit;
  contentType?: string;
  params?: Record<string, string>;
  query?: string;
  headers?: Record<string, string>;
};
type Path = (string | number)[];
const RAW = "__raw_json_fragment__";

/** A valid JSON body with one field replaced; `raw` is spliced in as JSON text (so "__proto__" survives). */
function withField(valid: object, path: Path, value: { value?: unknown; raw?: string }): Case {
  const body = structuredClone(valid) as Record<string | number, unknown>;
  let node = body;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = "raw" in value && value.raw !== undefined ? RAW : value.value;
  const text = JSON.stringify(body);
  return { body: value.raw !== undefined ? text.replace(JSON.stringify(RAW), value.raw) : text };
}
const field = (valid: () => object, path: Path, arbitrary: fc.Arbitrary<unknown>) =>
  arbitrary.map((value) => withField(valid(), path, { value }));

/** Whole-body faults every JSON endpoint must refuse. */
function bodyFaults(valid: () => object): fc.Arbitrary<Case> {
  return fc.oneof(
    notJson.map((text) => ({ body: text })),
    notAnObject.map((v) => ({ body: JSON.stringify(v) })),
    fc.constant(null).map(() => ({ body: JSON.stringify(valid()), contentType: "text/plain" })),
    fc.nat({ max: 2000 }).map((extra) => ({ body: "[".repeat(3000 + extra) + "]".repeat(3000 + extra) })),
    fc.constant(null).map(() => ({ body: JSON.stringify({ ...valid(), padding: "x".repeat(300 * 1024) }) })),
    fc
      .uint8Array({ maxLength: 8 })
      .map((bytes) => ({ body: new Uint8Array([0x7b, 0x22, 0xff, ...bytes, 0x22, 0x7d]) })),
  );
}

const stagesWith = (component: Record<string, unknown>) => [
  { name: "S", components: [{ name: "c", budgetMs: { p50: null, p95: 10, p99: null }, source: null, ...component }] },
];
const source = { preset: "generic", metric: "llm_request_ttft_seconds", matchers: { service: "chat-api" } };

/** Faults in a budget document (create-service and save-budget share them). */
function documentFaults(valid: () => Record<string, unknown>): fc.Arbitrary<Case> {
  return fc.oneof(
    field(valid, ["indicator"], badName(60)),
    field(
      valid,
      ["targetMs"],
      outside(0, 3_600_000).filter((v) => v !== 0 || true),
    ),
    field(
      valid,
      ["quantile"],
      fc.oneof(
        notNumber,
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((q) => ![0.5, 0.95, 0.99].includes(q)),
      ),
    ),
    field(
      valid,
      ["stages"],
      fc.oneof(
        notText.filter((v) => !Array.isArray(v) && v !== null),
        fc.constant(Array.from({ length: 41 }, (_, i) => ({ name: `s${i}`, components: [] }))),
      ),
    ),
    field(
      valid,
      ["stages"],
      badName(80).map((name) => stagesWith({ name })),
    ),
    field(
      valid,
      ["stages"],
      outside(0, 3_600_000)
        .filter((v) => v !== null)
        .map((p95) => stagesWith({ budgetMs: { p50: null, p95, p99: null } })),
    ),
    field(valid, ["stages"], fc.constant([{ name: "S", components: [] }])),
    field(
      valid,
      ["stages"],
      badName(80).map((name) => [{ name, components: stagesWith({})[0]!.components }]),
    ),
    badMatchers.map((m) =>
      withField(
        { ...valid(), stages: stagesWith({ source: { ...source, matchers: RAW } }) },
        ["stages", 0, "components", 0, "source", "matchers"],
        m,
      ),
    ),
    badMatchers.map((m) => withField({ ...valid(), endToEndSource: source }, ["endToEndSource", "matchers"], m)),
    field(
      valid,
      ["endToEndSource"],
      fc
        .oneof(withNul, withLoneSurrogate, fc.constantFrom("9lives", "x_bucket", "a b", ""))
        .map((metric) => ({ ...source, metric })),
    ),
    field(
      valid,
      ["endToEndSource"],
      fc
        .string({ maxLength: 8 })
        .filter((p) => !["generic", "vllm", "tgi", "otel-genai", "custom"].includes(p))
        .map((preset) => ({ ...source, preset })),
    ),
  );
}

let slug = "";
let budgetVersion = 1;
let sloId = "";
let experimentId = "";
const unique = () => `fuzz-${randomUUID().slice(0, 8)}`;

const serviceBody = () => ({
  slug: unique(),
  name: "Fuzz",
  description: "",
  indicator: "TTFT",
  targetMs: 700,
  quantile: 0.95,
  stages: [],
});
const budgetBody = () => ({
  indicator: "TTFT",
  targetMs: 700,
  quantile: 0.95,
  stages: structuredClone(chatApi.stages),
  endToEndSource: null,
  version: budgetVersion,
});
const sloBody = () => ({
  name: unique(),
  indicator: "TTFT",
  source,
  thresholdMs: 700,
  objective: 0.99,
  windowDays: 28,
  thresholdMode: "snap",
});
const experimentBody = () => ({
  service: slug,
  name: "Fuzz",
  hypothesis: "",
  variants: [
    { name: "control", weight: 1 },
    { name: "treatment", weight: 1 },
  ],
});
const optimizationBody = () => ({
  name: unique(),
  component: "Network",
  savingMs: 10,
  costPct: 5,
  note: "",
  source: "manual",
});

const csvRow = fc
  .tuple(fc.constantFrom("control", "treatment"), fc.integer({ min: 1, max: 5000 }))
  .map(([v, ms]) => `${v},${ms}`);
const badCsvRow = fc.oneof(
  fc.constantFrom("blue,100", "control,-5", "control,abc", "control,", ",100", "control,1e99", "control,100,extra"),
  withNul.map((v) => `control${v},100`),
  withLoneSurrogate.map((v) => `${v},100`),
);

/** Alert labels Alertmanager could never send: bad names, unstorable values, too many. */
const badAlertLabels = fc.oneof(
  fc
    .oneof(fc.constantFrom("__proto__", "__name__", "9a", "a-b", "", "a b"), withNul)
    .map((name) => ({ raw: `{${JSON.stringify(name)}:"x"}` })),
  fc.oneof(withNul, withLoneSurrogate, notText).map((value) => ({ value: { service: value } })),
  fc.constant({ value: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`l${i}`, "v"])) }),
);
const webhookAlert = () => ({
  status: "firing",
  labels: { alertname: "ComponentOverBudget", service: slug, severity: "ticket" },
  annotations: { summary: "RAG retrieval p95 is 300ms" },
  startsAt: "2026-11-22T10:00:00Z",
  endsAt: "0001-01-01T00:00:00Z",
  fingerprint: "0123456789abcdef",
});
const webhookBody = () => ({ version: "4", status: "firing", receiver: "fuzz", alerts: [webhookAlert()] });
const openSloBody = () => ({
  apiVersion: "openslo/v1",
  kind: "SLO",
  metadata: { name: "fuzz", displayName: `Fuzz ${unique()}` },
  spec: {
    service: slug,
    indicator: {
      metadata: { name: "ttft" },
      spec: {
        ratioMetric: {
          counter: true,
          good: { metricSource: { type: "Prometheus", spec: { query: 'x_bucket{le="0.5"}' } } },
          total: { metricSource: { type: "Prometheus", spec: { query: "x_count" } } },
        },
      },
    },
    timeWindow: [{ duration: "28d", isRolling: true }],
    budgetingMethod: "Occurrences",
    objectives: [{ target: 0.99 }],
  },
});

const planBody = () => ({ targetRps: 50, avgLatencyS: 2, maxConcurrentPerGpu: 8, targetUtilization: 0.8 });
const queueBody = () => ({ arrivalRps: 1, serviceTimeS: 1, servers: 2 });

type Endpoint = {
  name: string;
  /** Sent with an admin's session cookie instead of an API token (people and tokens are managed by people). */
  isSession?: boolean;
  handler: Handler;
  method: string;
  params: () => Record<string, string>;
  /** Sent with every case unless the case overrides it. */
  headers?: Record<string, string>;
  /** The content type of a case's body when it names none; JSON by default. */
  contentType?: string;
  /** The request's path, for handlers that read it (better-auth's catch-all); /api by default. */
  path?: string;
  cases: () => fc.Arbitrary<Case>;
};

const endpoints: Endpoint[] = [
  {
    name: "POST /api/services",
    handler: servicesRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(serviceBody),
        documentFaults(serviceBody),
        field(
          serviceBody,
          ["slug"],
          fc.oneof(badText(64), fc.constantFrom("", "A", "Has Space", "-x", "x--y", "a".repeat(65))),
        ),
        field(serviceBody, ["name"], badName(120)),
        field(serviceBody, ["description"], badText(2000)),
      ),
  },
  {
    name: "PUT /api/services/{slug}/budget",
    handler: budgetRoute.PUT as Handler,
    method: "PUT",
    params: () => ({ slug }),
    cases: () =>
      fc.oneof(
        bodyFaults(budgetBody),
        documentFaults(budgetBody),
        field(budgetBody, ["version"], fc.oneof(notNumber, fc.constantFrom(0, -1, 1.5, 1e308))),
        field(
          budgetBody,
          ["message"],
          fc.oneof(
            withNul,
            withLoneSurrogate,
            withLineSeparator,
            fc.nat({ max: 20 }).map((n) => "m".repeat(501 + n)),
          ),
        ),
      ),
  },
  {
    name: "POST /api/services/{slug}/budget/revisions/{version}/restore",
    handler: restoreRoute.POST as Handler,
    method: "POST",
    params: () => ({ slug, version: "1" }),
    cases: () =>
      fc.oneof(
        bodyFaults(() => ({ version: budgetVersion })),
        field(() => ({ version: budgetVersion }), ["version"], fc.oneof(notNumber, fc.constantFrom(0, -3, 2.5))),
        fc
          .constantFrom("0", "-1", "abc", "1.5", "99999999999999999999", "")
          .map((version) => ({ body: JSON.stringify({ version: budgetVersion }), params: { slug, version } })),
        fc
          .integer({ min: 1, max: budgetVersion })
          .map(() => ({ body: JSON.stringify({ version: budgetVersion + 7 }) })),
      ),
  },
  {
    name: "POST /api/services/{slug}/slos",
    handler: slosRoute.POST as Handler,
    method: "POST",
    params: () => ({ slug }),
    cases: () =>
      fc.oneof(
        bodyFaults(sloBody),
        field(sloBody, ["name"], badName(120)),
        field(sloBody, ["indicator"], badName(60)),
        field(sloBody, ["thresholdMs"], outside(0, 3_600_000)),
        field(sloBody, ["objective"], outside(0.5, 0.99999)),
        field(
          sloBody,
          ["windowDays"],
          fc.oneof(
            notNumber,
            fc.integer().filter((d) => ![7, 28, 30].includes(d)),
          ),
        ),
        field(
          sloBody,
          ["thresholdMode"],
          fc.string({ maxLength: 8 }).filter((m) => m !== "snap" && m !== "interpolate"),
        ),
        badMatchers.map((m) =>
          withField({ ...sloBody(), source: { ...source, matchers: RAW } }, ["source", "matchers"], m),
        ),
        field(sloBody, ["budgetingMethod"], fc.oneof(notText, fc.constantFrom("Timeslices", "ratio", ""))),
        fc
          .record({
            timesliceMinutes: fc.oneof(fc.constant(null), notNumber, fc.constantFrom(0, 61, 1.5, -5)),
            timesliceTarget: fc.oneof(fc.constant(null), notNumber, outside(0.5, 0.9999)),
          })
          .filter(
            (r) =>
              r.timesliceMinutes === null ||
              r.timesliceTarget === null ||
              typeof r.timesliceMinutes !== "number" ||
              typeof r.timesliceTarget !== "number" ||
              !Number.isInteger(r.timesliceMinutes) ||
              r.timesliceMinutes < 1 ||
              r.timesliceMinutes > 60 ||
              r.timesliceTarget < 0.5 ||
              r.timesliceTarget > 0.9999,
          )
          .map((r) => ({ body: JSON.stringify({ ...sloBody(), budgetingMethod: "timeslices", ...r }) })),
        fc
          .oneof(
            notText.filter((v) => v !== undefined),
            withNul,
            fc.constantFrom("Mars/Olympus", "", "x".repeat(65)),
          )
          .map((timeZone) => ({
            body: JSON.stringify({ ...sloBody(), windowKind: "calendar", calendarUnit: "month", timeZone }),
          })),
        fc
          .oneof(fc.constant(null), fc.constantFrom("day", "year", "Month"))
          .map((calendarUnit) => ({ body: JSON.stringify({ ...sloBody(), windowKind: "calendar", calendarUnit }) })),
        field(
          sloBody,
          ["windowKind"],
          fc.oneof(
            notText.filter((v) => v !== undefined),
            fc.constantFrom("Rolling", ""),
          ),
        ),
      ),
  },
  {
    name: "PUT /api/services/{slug}/slos/{id}",
    handler: sloRoute.PUT as Handler,
    method: "PUT",
    params: () => ({ slug, id: sloId }),
    cases: () => {
      const valid = () => ({ ...sloBody(), name: "Fuzz SLO", version: 1 });
      return fc.oneof(
        bodyFaults(valid),
        field(valid, ["version"], fc.oneof(notNumber, fc.constantFrom(0, -1, 0.5))),
        field(valid, ["objective"], outside(0.5, 0.99999)),
        field(valid, ["name"], badName(120)),
        fc
          .oneof(fc.uuid(), fc.string({ maxLength: 40 }))
          .map((id) => ({ body: JSON.stringify(valid()), params: { slug, id } })),
      );
    },
  },
  {
    name: "DELETE /api/services/{slug}/slos/{id}",
    handler: sloRoute.DELETE as Handler,
    method: "DELETE",
    params: () => ({ slug }),
    cases: () =>
      fc.oneof(
        fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }), withNul).map((id) => ({ params: { slug, id } })),
        fc.oneof(fc.string({ maxLength: 30 }), withLoneSurrogate).map((s) => ({ params: { slug: s, id: sloId } })),
      ),
  },
  {
    name: "POST /api/experiments",
    handler: experimentsRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(experimentBody),
        field(experimentBody, ["service"], fc.oneof(fc.constant("no-such-service"), badText(64))),
        field(experimentBody, ["name"], badName(120)),
        field(experimentBody, ["hypothesis"], badText(2000)),
        field(
          experimentBody,
          ["variants"],
          fc.oneof(
            fc.constant([{ name: "control", weight: 1 }]),
            fc.constant(Array.from({ length: 9 }, (_, i) => ({ name: `v${i}`, weight: 1 }))),
            fc.constant([
              { name: "a", weight: 1 },
              { name: "a", weight: 1 },
            ]),
            outside(0, 1e6).map((weight) => [
              { name: "control", weight },
              { name: "treatment", weight: 1 },
            ]),
            fc.oneof(withNul, withLoneSurrogate, fc.constantFrom("", "has space", "x".repeat(61))).map((name) => [
              { name, weight: 1 },
              { name: "b", weight: 1 },
            ]),
          ),
        ),
        field(
          experimentBody,
          ["indicators"],
          fc.oneof(
            fc.constant([]),
            fc.constant(["latency"]),
            notText.filter((v) => !Array.isArray(v)),
          ),
        ),
        field(
          experimentBody,
          ["judgedPercentile"],
          fc.double({ noNaN: true, noDefaultInfinity: true }).filter((q) => ![0.5, 0.95, 0.99].includes(q)),
        ),
        field(
          experimentBody,
          ["qualityMaxDrop"],
          outside(0, 1).filter((v) => v !== null),
        ),
        field(
          experimentBody,
          ["startsAt"],
          fc.oneof(fc.constantFrom("yesterday", "2026-13-45", "", "0", "2026-11-20"), withNul, fc.integer()),
        ),
        fc.constant(null).map(() => ({
          body: JSON.stringify({
            ...experimentBody(),
            startsAt: "2026-11-20T00:00:00Z",
            endsAt: "2026-11-19T00:00:00Z",
          }),
        })),
      ),
  },
  {
    name: "POST /api/experiments/{id}/samples",
    handler: samplesRoute.POST as Handler,
    method: "POST",
    params: () => ({ id: experimentId }),
    cases: () =>
      fc.oneof(
        fc.tuple(fc.array(csvRow, { maxLength: 5 }), badCsvRow, fc.nat()).map(([rows, bad, at]) => {
          rows.splice(at % (rows.length + 1), 0, bad);
          return { body: `variant,ttft_ms\n${rows.join("\n")}`, contentType: "text/csv" };
        }),
        fc
          .tuple(
            fc.array(csvRow, { maxLength: 5 }),
            // One line that is not a JSON object (a blank line is no row at all, so not that).
            fc
              .oneof(
                notJson,
                notAnObject.map((v) => JSON.stringify(v)),
              )
              .map((bad) => bad.replace(/[\r\n]/g, " "))
              .filter((bad) => bad.trim() !== ""),
          )
          .map(([rows, bad]) => ({
            body: [
              ...rows.map((r) => JSON.stringify({ variant: r.split(",")[0], ttft_ms: Number(r.split(",")[1]) })),
              bad,
            ].join("\n"),
            contentType: "application/x-ndjson",
          })),
        fc.constantFrom("variant,ttft_ms\n", "", "\n\n").map((body) => ({ body, contentType: "text/csv" })),
        fc.uint8Array({ minLength: 1, maxLength: 16 }).map((bytes) => ({
          body: new Uint8Array([...Buffer.from("variant,ttft_ms\ncontrol,"), 0xff, ...bytes]),
          contentType: "text/csv",
        })),
        fc
          .constantFrom("application/json", "text/plain", "")
          .map((contentType) => ({ body: "variant,ttft_ms\ncontrol,1", contentType })),
        fc
          .string({ maxLength: 8 })
          // Empty is no choice (the default), not a bad one.
          .filter((s) => s !== "" && s !== "skip" && s !== "reject")
          .map((onError) => ({
            body: "variant,ttft_ms\ncontrol,1",
            contentType: "text/csv",
            query: `onError=${encodeURIComponent(onError)}`,
          })),
        fc
          .oneof(fc.uuid(), fc.string({ maxLength: 20 }))
          .map((id) => ({ body: "variant,ttft_ms\ncontrol,1", contentType: "text/csv", params: { id } })),
      ),
  },
  {
    name: "PUT /api/experiments/{id}/status",
    handler: statusRoute.PUT as Handler,
    method: "PUT",
    params: () => ({ id: experimentId }),
    cases: () => {
      const valid = () => ({ version: 1, status: "decided", decision: "ship", decisionNote: "" });
      return fc.oneof(
        bodyFaults(valid),
        field(valid, ["version"], fc.oneof(notNumber, fc.constantFrom(0, -1, 1.5))),
        field(
          valid,
          ["status"],
          fc.string({ maxLength: 10 }).filter((s) => !["running", "stopped", "decided"].includes(s)),
        ),
        field(
          valid,
          ["decision"],
          fc.oneof(
            fc.constant(null),
            fc.string({ maxLength: 10 }).filter((s) => !["ship", "do-not-ship", "iterate"].includes(s)),
          ),
        ),
        field(valid, ["decisionNote"], badText(2000)),
        fc
          .constantFrom("running", "stopped")
          .map((status) => ({ body: JSON.stringify({ version: 1, status, decision: "ship" }) })),
        fc
          .oneof(fc.uuid(), fc.string({ maxLength: 20 }))
          .map((id) => ({ body: JSON.stringify(valid()), params: { id } })),
      );
    },
  },
  {
    // A read, but its query reaches Prometheus: a bad match is refused before anything is asked.
    name: "GET /api/discovery/histograms",
    handler: discoveryRoute.GET as Handler,
    method: "GET",
    params: () => ({}),
    cases: () =>
      amongEmptyParams(
        ["kind", "unit"],
        fc.oneof(withNul, tooLong(200)).map((match) => `match=${encodeURIComponent(match)}`),
      ).map((query) => ({ query })),
  },
  {
    // The audit trail's filters, as its form sends them: the blank ones are no filter, a bad one is refused.
    name: "GET /api/audit",
    handler: auditRoute.GET as Handler,
    method: "GET",
    isSession: true,
    params: () => ({}),
    cases: () =>
      amongEmptyParams(
        ["service", "actor", "before", "limit"],
        fc.oneof(
          fc.constantFrom("Chat-API", "a b", "-".repeat(65), "x/y").map((v) => `service=${encodeURIComponent(v)}`),
          fc.oneof(withNul, tooLong(64)).map((v) => `actor=${encodeURIComponent(v)}`),
          fc.constantFrom("yesterday", "x", "12345678901234567890").map((v) => `before=${encodeURIComponent(v)}`),
          fc.constantFrom("0", "201", "-1", "ten", "1.5").map((v) => `limit=${v}`),
        ),
      ).map((query) => ({ query })),
  },
  {
    name: "POST /api/experiments/{id}/import-prometheus",
    handler: importRoute.POST as Handler,
    method: "POST",
    params: () => ({ id: experimentId }),
    cases: () =>
      fc.oneof(
        // The body is optional here: a blank one means "no options", which is valid.
        bodyFaults(() => ({})).filter(
          (c) => c.contentType !== "text/plain" && !(typeof c.body === "string" && c.body.trim() === ""),
        ),
        fc
          .oneof(withNul, fc.constantFrom("9lives", "x_bucket", "a-b", ""))
          .map((metric) => ({ body: JSON.stringify({ metric }) })),
        fc
          .oneof(withNul, fc.constantFrom("__name__", "le", "9a", "a-b"))
          .map((variantLabel) => ({ body: JSON.stringify({ variantLabel }) })),
        notText.filter((v) => v !== null).map((costMetric) => ({ body: JSON.stringify({ costMetric }) })),
      ),
  },
  {
    // A calculation, but its sources reach Prometheus: every fault is refused before anything is asked.
    name: "POST /api/proposals",
    handler: proposalsRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    cases: () => {
      const valid = () => ({
        targetMs: 700,
        quantile: 0.95,
        window: "1h",
        stages: [
          {
            name: "RAG",
            components: [
              { name: "rag", source: { preset: "custom", metric: "rag_seconds", matchers: { stage: "rag" } } },
            ],
          },
        ],
      });
      const source = ["stages", 0, "components", 0, "source"];
      return fc.oneof(
        bodyFaults(valid),
        field(valid, ["targetMs"], fc.oneof(notNumber, fc.constantFrom(0, -1, 1e308))),
        field(valid, ["quantile"], fc.constantFrom(0.9, "p95", null)),
        field(valid, ["window"], fc.oneof(withNul, fc.constantFrom("1x", "0m", "99999d"))),
        field(valid, ["stages"], fc.constantFrom([], [{ name: "S", components: [] }], null)),
        field(valid, [...source, "metric"], fc.oneof(withNul, fc.constantFrom("9lives", "x_bucket", "a-b", ""))),
        field(valid, [...source, "unit"], fc.constantFrom("minutes", "µs", 1, null)),
        field(valid, [...source, "kind"], fc.constantFrom("exponential", 1)),
        field(
          valid,
          [...source, "matchers"],
          fc.oneof(
            fc.constantFrom({ le: "1" }, { __name__: "x" }, { "a-b": "x" }),
            withNul.map((v) => ({ a: v })),
          ),
        ),
      );
    },
  },
  {
    name: "POST /api/capacity/plan",
    handler: capacityPlanRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(planBody),
        field(planBody, ["targetRps"], outside(0, 1_000_000)),
        field(planBody, ["avgLatencyS"], outside(0, 3600)),
        field(planBody, ["maxConcurrentPerGpu"], fc.oneof(outside(1, 100_000), fc.constantFrom(1.5, 7.25))),
        field(planBody, ["targetUtilization"], fc.oneof(outside(0, 1), fc.constant(0))),
      ),
  },
  {
    name: "POST /api/capacity/queue",
    handler: capacityQueueRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(queueBody),
        field(queueBody, ["arrivalRps"], outside(0, 1_000_000)),
        field(queueBody, ["serviceTimeS"], fc.oneof(outside(0, 3600), fc.constant(0))),
        field(queueBody, ["servers"], fc.oneof(outside(1, 10_000), fc.constantFrom(2.5, 0))),
      ),
  },
  {
    name: "POST /api/optimizations",
    handler: optimizationsRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(optimizationBody),
        field(optimizationBody, ["name"], badName(120)),
        field(optimizationBody, ["component"], badName(161)),
        field(optimizationBody, ["savingMs"], outside(-60_000, 60_000)),
        field(optimizationBody, ["costPct"], outside(-100, 10_000)),
        field(optimizationBody, ["note"], badText(500)),
        field(optimizationBody, ["source"], badText(120)),
      ),
  },
  {
    name: "POST /api/annotations",
    handler: annotationsRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    cases: () => {
      const valid = () => ({
        service: "chat-api",
        at: Math.floor(Date.now() / 1000) - 60,
        text: "Deployed v2.3.1",
        tags: ["deploy"],
        url: "https://ci.example.test/runs/1",
      });
      return fc.oneof(
        bodyFaults(valid),
        field(valid, ["service"], fc.oneof(notText, fc.constantFrom("no-such-service", "Chat API", ""), withNul)),
        field(
          valid,
          ["at"],
          fc.oneof(
            fc.constantFrom("1700000000", 1.5e9 + 0.5, 0, -1, Math.floor(Date.now() / 1000) + 3600),
            outside(946_684_800, 4_102_444_800),
          ),
        ),
        field(valid, ["text"], fc.oneof(badText(500), fc.constantFrom("", "   "))),
        field(valid, ["kind"], fc.oneof(notText, fc.constantFrom("budget", "alert", "slo", "Deploy", ""))),
        field(
          valid,
          ["tags"],
          fc.oneof(
            notText.filter((v) => !Array.isArray(v) && v !== null),
            fc.constant(Array.from({ length: 11 }, (_, i) => `t${i}`)),
            fc.constantFrom([""], ["two words"], ["<b>"], [1]),
            fc.oneof(withNul, withLoneSurrogate, tooLong(60)).map((tag) => [tag]),
          ),
        ),
        field(
          valid,
          ["url"],
          fc.oneof(
            fc.constantFrom("javascript:alert(1)", "data:text/html,<b>x</b>", "ftp://ci.example.test/", "not a url"),
            tooLong(2000).map((tail) => `https://ci.example.test/${tail}`),
            withNul,
            notText.filter((v) => v !== null),
          ),
        ),
      );
    },
  },
  {
    name: "DELETE /api/annotations/{id}",
    handler: annotationRoute.DELETE as Handler,
    method: "DELETE",
    params: () => ({}),
    cases: () =>
      fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }), withNul, withLoneSurrogate).map((id) => ({ params: { id } })),
  },
  {
    name: "POST /api/alertmanager/webhook",
    handler: webhookRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    headers: { authorization: `Bearer ${WEBHOOK_TOKEN}` },
    cases: () =>
      fc.oneof(
        bodyFaults(webhookBody),
        fc
          .constantFrom(undefined, "", "Bearer", `Bearer ${WEBHOOK_TOKEN}x`, `Basic ${WEBHOOK_TOKEN}`, "Bearer wrong")
          .map((authorization) => ({
            body: JSON.stringify(webhookBody()),
            headers: authorization === undefined ? { authorization: "" } : { authorization },
          })),
        field(webhookBody, ["version"], fc.oneof(notText, fc.constantFrom("3", "5", 4))),
        field(
          webhookBody,
          ["alerts"],
          fc.oneof(notAnObject, fc.constant([]), fc.constant(Array(501).fill(webhookAlert()))),
        ),
        field(webhookBody, ["alerts", 0, "status"], fc.oneof(notText, fc.constantFrom("pending", "FIRING"))),
        field(
          webhookBody,
          ["alerts", 0, "startsAt"],
          fc.oneof(notText, fc.constantFrom("yesterday", "2026-13-01T00:00:00Z", "0\u0000")),
        ),
        field(
          webhookBody,
          ["alerts", 0, "labels", "service"],
          fc.oneof(
            withNul,
            withLoneSurrogate,
            notText.filter((v) => v !== undefined),
          ),
        ),
        field(
          webhookBody,
          ["alerts", 0, "annotations", "summary"],
          fc.oneof(withNul, withLoneSurrogate, fc.constant("x".repeat(4001))),
        ),
        badAlertLabels.map((m) =>
          withField({ ...webhookBody(), alerts: [{ ...webhookAlert(), labels: RAW }] }, ["alerts", 0, "labels"], m),
        ),
        field(webhookBody, ["alerts", 0, "fingerprint"], fc.constantFrom("XYZ", "g".repeat(16), "0".repeat(65))),
      ),
  },
  {
    name: "POST /api/openslo",
    handler: openSloRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    contentType: "application/yaml",
    cases: () =>
      fc.oneof(
        // Any text at all: only a valid openslo/v1 document could import, and random text is not one.
        fc.string({ maxLength: 200 }).map((body) => ({ body: body.trim() === "" ? "x" : body })),
        fc
          .constantFrom("application/json", "text/plain", "")
          .map((contentType) => ({ body: toYaml(openSloBody()), contentType })),
        fc.constant(null).map(() => ({ body: `${toYaml(openSloBody())}#${"x".repeat(1024 * 1024)}` })),
        fc
          .uint8Array({ minLength: 1, maxLength: 8 })
          .map((bytes) => ({ body: new Uint8Array([0x61, 0x3a, 0x20, 0xff, ...bytes]) })),
        fc
          .constantFrom(
            "a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n",
            "kind: SLO\nkind: SLO\n",
            "---\n---\n",
            "apiVersion: openslo/v1\nkind: SLO\n",
            "apiVersion: openslo/v2alpha\nkind: SLO\n",
          )
          .map((body) => ({ body })),
        fc
          .oneof(
            fc
              .constant(["spec", "objectives", 0, "target"])
              .chain((path) => fc.tuple(fc.constant(path), fc.oneof(notNumber, outside(0.5, 0.99999)))),
            fc
              .constant(["spec", "service"])
              .chain((path) =>
                fc.tuple(fc.constant(path), fc.oneof(notText, fc.constantFrom("no-such-service", "Not A Slug"))),
              ),
            fc
              .constant(["spec", "indicator", "spec", "ratioMetric", "good", "metricSource", "spec", "query"])
              .chain((path) =>
                fc.tuple(
                  fc.constant(path),
                  fc.oneof(
                    notText,
                    fc.string({ maxLength: 40 }),
                    fc.constantFrom(
                      'x_bucket{le=~"0.5"}',
                      'x_count{le="0.5"}',
                      'x_bucket{le="0"}',
                      'x_bucket{le="NaN"}',
                    ),
                  ),
                ),
              ),
            fc
              .constant(["spec", "timeWindow", 0, "duration"])
              .chain((path) => fc.tuple(fc.constant(path), fc.oneof(notText, fc.constantFrom("2w", "1y", "1M")))),
            fc.constant(["spec", "budgetingMethod"]).chain((path) =>
              fc.tuple(
                fc.constant(path),
                fc.oneof(
                  notText.filter((v) => v !== undefined),
                  fc.constantFrom("RatioTimeslices", "occurrences"),
                ),
              ),
            ),
            fc
              .constant(["metadata", "displayName"])
              .chain((path) =>
                fc.tuple(fc.constant(path), fc.oneof(withNul, withLoneSurrogate, fc.constant("x".repeat(121)))),
              ),
            fc
              .constant(["spec", "indicator", "spec", "ratioMetric", "good", "metricSource", "type"])
              .chain((path) => fc.tuple(fc.constant(path), fc.oneof(notText, fc.constantFrom("Any", "Datadog")))),
          )
          .map(([path, value]) => {
            const doc = openSloBody() as Record<string | number, unknown>;
            let node = doc;
            for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
            node[path[path.length - 1]!] = value;
            return { body: toYaml(doc) };
          }),
      ),
  },
  {
    name: "POST /api/users",
    handler: usersRoute.POST as Handler,
    method: "POST",
    isSession: true,
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(userBody),
        field(userBody, ["email"], fc.oneof(badText(254), fc.constantFrom("", "no-at-sign", "a@", "@b.c", "a@b@c.d"))),
        field(userBody, ["name"], badName(120)),
        field(userBody, ["role"], fc.oneof(notText, fc.constantFrom("owner", "Admin", "superuser", ""))),
        field(
          userBody,
          ["password"],
          fc.oneof(
            withNul.map((s) => `${s}-long-enough-pw`),
            notText,
            fc.string({ maxLength: 11 }),
            tooLongPassword,
          ),
        ),
        fc.constant(null).map(() => ({ body: JSON.stringify({ ...userBody(), email: adminEmail }) })),
      ),
  },
  {
    name: "PATCH /api/users/{id}",
    handler: userRoute.PATCH as Handler,
    method: "PATCH",
    isSession: true,
    params: () => ({ id: viewerId }),
    cases: () =>
      fc.oneof(
        bodyFaults(() => ({ role: "editor" })),
        fc.oneof(notText, fc.constantFrom("owner", "ADMIN", "")).map((role) => ({ body: JSON.stringify({ role }) })),
        fc
          .oneof(
            notText.filter((v) => typeof v !== "boolean"),
            fc.constantFrom("false", "true", 0, 1),
          )
          .map((active) => ({ body: JSON.stringify({ active }) })),
        fc
          .constantFrom({}, { email: "x@example.test" }, { role: "editor", name: "X" })
          .map((b) => ({ body: JSON.stringify(b) })),
        fc
          .oneof(fc.uuid(), fc.string({ maxLength: 40 }), withNul)
          .map((id) => ({ body: JSON.stringify({ role: "editor", active: false }), params: { id } })),
      ),
  },
  {
    name: "POST /api/users/{id}/password",
    handler: userPasswordRoute.POST as Handler,
    method: "POST",
    isSession: true,
    params: () => ({ id: viewerId }),
    cases: () =>
      fc.oneof(
        bodyFaults(() => ({ password: "a long enough password" })),
        field(
          () => ({ password: "a long enough password" }),
          ["password"],
          fc.oneof(
            withNul.map((s) => `${s}-long-enough-pw`),
            withLoneSurrogate.map((s) => `${s}-long-enough-pw`),
            notText,
            fc.string({ maxLength: 11 }),
            tooLongPassword,
          ),
        ),
        fc
          .oneof(fc.uuid(), fc.string({ maxLength: 40 }), withNul)
          .map((id) => ({ body: JSON.stringify({ password: "a long enough password" }), params: { id } })),
      ),
  },
  {
    name: "DELETE /api/users/{id}/sessions",
    handler: userSessionsRoute.DELETE as Handler,
    method: "DELETE",
    isSession: true,
    params: () => ({}),
    cases: () =>
      fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }), withNul, withLoneSurrogate).map((id) => ({ params: { id } })),
  },
  {
    name: "POST /api/me/password",
    handler: mePasswordRoute.POST as Handler,
    method: "POST",
    isSession: true,
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(passwordChange),
        field(passwordChange, ["currentPassword"], fc.oneof(notText, fc.constant(""), tooLongPassword)),
        field(
          passwordChange,
          ["newPassword"],
          fc.oneof(
            withNul.map((s) => `${s}-long-enough-pw`),
            notText,
            fc.string({ maxLength: 11 }),
            tooLongPassword,
            fc.constant(TEST_PASSWORD),
          ),
        ),
      ),
  },
  {
    name: "POST /api/tokens",
    handler: tokensRoute.POST as Handler,
    method: "POST",
    isSession: true,
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(tokenBody),
        field(tokenBody, ["name"], badName(80)),
        field(
          tokenBody,
          ["scopes"],
          fc.oneof(
            notText,
            fc.constant([]),
            fc.constant(["read", "read"]),
            fc.constant(["admin"]),
            fc.constant(["write:*"]),
          ),
        ),
        field(
          tokenBody,
          ["expiresInDays"],
          fc.oneof(
            outside(1, 365),
            fc.constant(1.5),
            notNumber.filter((v) => v !== undefined),
          ),
        ),
      ),
  },
  {
    name: "DELETE /api/tokens/{id}",
    handler: tokenRoute.DELETE as Handler,
    method: "DELETE",
    isSession: true,
    params: () => ({}),
    cases: () =>
      fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }), withNul, withLoneSurrogate).map((id) => ({ params: { id } })),
  },
  {
    // Refused before any password is read, so nothing is stored (no attempt, no audit entry).
    name: "POST /api/auth/sign-in/email",
    handler: authRoute.POST as Handler,
    method: "POST",
    path: "/api/auth/sign-in/email",
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(signInBody),
        field(
          signInBody,
          ["email"],
          fc.oneof(
            notText.filter((v) => v !== null),
            fc.constantFrom("", "   "),
          ),
        ),
        field(signInBody, ["callbackURL"], offSiteCallback),
        field(signInBody, ["errorCallbackURL"], offSiteCallback),
        field(signInBody, ["newUserCallbackURL"], offSiteCallback),
      ),
  },
  {
    name: "POST /api/setup",
    handler: setupRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(setupBody),
        field(setupBody, ["code"], fc.oneof(notText, fc.constantFrom("", "AAAA-BBBB-CCCC"), badText(40))),
        fc.constant(null).map(() => ({ body: JSON.stringify(setupBody()) })),
      ),
  },
  {
    name: "POST /api/prometheus/buckets",
    handler: bucketsRoute.POST as Handler,
    method: "POST",
    params: () => ({}),
    cases: () =>
      fc.oneof(
        bodyFaults(() => ({ source })),
        badMatchers.map((m) => withField({ source: { ...source, matchers: RAW } }, ["source", "matchers"], m)),
      ),
  },
];

const userBody = () => ({
  email: `new-${unique()}@example.test`,
  name: "New person",
  role: "viewer",
  password: "a long enough password",
});
const tokenBody = () => ({ name: "fuzz", scopes: ["read"], expiresInDays: 30 });
const setupBody = () => ({
  code: "ABCD-EFGH-JKMN",
  email: "first@example.test",
  name: "First",
  password: "a long enough password",
});
const passwordChange = () => ({ currentPassword: TEST_PASSWORD, newPassword: "a long enough password" });
const tooLongPassword = fc.constant("p".repeat(129));
const signInBody = () => ({ email: "fuzz@example.test", password: "not the password", callbackURL: "/services" });
let adminCookie = "";
let adminEmail = "";
let viewerId = "";

/** Every row of every table, as JSON text in a stable order (a token's last use is not a change). */
async function storedData(): Promise<string> {
  return withClient(inject("databaseUrl"), async (c) => {
    const tables = await c.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
    const parts: string[] = [];
    for (const { tablename } of tables.rows as { tablename: string }[]) {
      const rows = await c.query(
        `SELECT (row_to_json(t)::jsonb - 'lastUsedAt')::text AS row FROM "${tablename}" t ORDER BY 1`,
      );
      parts.push(`${tablename}\n${(rows.rows as { row: string }[]).map((r) => r.row).join("\n")}`);
    }
    return parts.join("\n\n");
  });
}

function firstDifference(a: string, b: string): string {
  const [x, y] = [a.split("\n"), b.split("\n")];
  const i = x.findIndex((line, k) => line !== y[k]);
  return i < 0 ? `lengths ${x.length} vs ${y.length}` : `line ${i}: ${x[i]?.slice(0, 200)} → ${y[i]?.slice(0, 200)}`;
}

beforeAll(async () => {
  const admin = await newUser("admin");
  adminEmail = admin.email;
  adminCookie = await sessionCookie(admin.email);
  viewerId = (await newUser("viewer")).id;
  slug = unique();
  expect(
    (
      await call(servicesRoute.POST as Handler, {
        method: "POST",
        json: { ...chatApi.service, slug, stages: chatApi.stages },
      })
    ).status,
  ).toBe(201);
  budgetVersion = (await call(budgetRoute.GET as Handler, { params: { slug } })).body.version;
  const slo = await call(slosRoute.POST as Handler, {
    method: "POST",
    params: { slug },
    json: { ...sloBody(), name: "Fuzz SLO" },
  });
  sloId = slo.body.id;
  const experiment = await call(experimentsRoute.POST as Handler, { method: "POST", json: experimentBody() });
  experimentId = experiment.body.id;
});
afterAll(() => db().$disconnect());

describe(`generated invalid input on every mutating endpoint (${inject("databaseKind")})`, () => {
  it.each(endpoints.map((e) => [e.name, e] as const))(
    `%s: ${RUNS} inputs, each a 4xx with a message, nothing stored`,
    async (_name, endpoint) => {
      const before = await storedData();
      const seen = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(endpoint.cases(), async (c) => {
          const params = c.params ?? endpoint.params();
          const { status, body } = await call(endpoint.handler, {
            ...(endpoint.isSession && { as: null }),
            method: endpoint.method,
            path: `${endpoint.path ?? "/api"}?${c.query ?? ""}`,
            params,
            body: c.body,
            headers: {
              ...(endpoint.isSession && { cookie: adminCookie }),
              ...endpoint.headers,
              ...(c.contentType !== undefined
                ? { "content-type": c.contentType }
                : c.body !== undefined
                  ? { "content-type": endpoint.contentType ?? "application/json" }
                  : {}),
              ...c.headers,
            },
          });
          seen.set(status, (seen.get(status) ?? 0) + 1);
          expect(status, JSON.stringify(body)?.slice(0, 300)).toBeGreaterThanOrEqual(400);
          expect(status, JSON.stringify(body)?.slice(0, 300)).toBeLessThan(500);
          expect(typeof body?.error?.message).toBe("string");
          expect(body.error.message.length).toBeGreaterThan(10);
          expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|node_modules|prisma:|\bstack\b/i);
        }),
        { numRuns: RUNS },
      );
      const after = await storedData();
      expect(after === before, `stored data changed: ${firstDifference(before, after)}`).toBe(true);
      expect([...seen.values()].reduce((a, b) => a + b, 0)).toBe(RUNS);
      // The inputs reached the checks behind the rights: not everything was a 401 or 403.
      expect(
        [...seen.keys()].some((status) => status !== 401 && status !== 403),
        JSON.stringify([...seen]),
      ).toBe(true);
    },
    // Generous: some endpoints hash a password per input, and this is no speed test.
    180_000,
  );
});
