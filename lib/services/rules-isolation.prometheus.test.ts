import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as alertsRoute from "@/app/api/alerts/route";
import * as allRulesRoute from "@/app/api/rules.yaml/route";
import * as rulesRoute from "@/app/api/services/[slug]/rules.yaml/route";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import type { MetricSource } from "@/lib/domain/budget";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { coalesce, type CoalescingClient } from "@/lib/prometheus/coalesce";
import { buildRuleSet, renderRules, type RuleService } from "@/lib/prometheus/rules";
import { startPrometheus, type PrometheusServer } from "@/scripts/stack/prometheus";
import { testUser } from "@/test/actors";
import { startFixtureExporter, type FixtureExporter } from "@/test/fixture-exporter";
import { call, type Handler } from "@/test/http";
import { PROMQL_WORDS } from "@/test/promql-words";
import { getAlerts } from "./alerts";
import { syncRulesFile } from "./rules";
import { createService } from "./services";

// Issue 26, item 1: one editor could freeze every rule reload. A native source named `atan2` or
// `inf` made promtool refuse the whole file (and `inf` made rules.yaml answer 500), so no service's
// rules reached Prometheus. Now such names are written {__name__="…"}, and a group that still fails
// a check is left out alone: the rest loads in a real Prometheus, and the service's alerts say why.

const dir = mkdtempSync(join(tmpdir(), "lb-rules-isolation-"));
const rulesFile = join(dir, "rules", "latency-budgets.rules.yaml");
// promtool itself, unless the marker exists: then it refuses any file selecting the metric atan2,
// as Prometheus 2.42's parser refused atan2{…}, so the group-by-group path meets a real refusal.
const refuseMarker = join(dir, "refuse-atan2");
const promtool = join(dir, "promtool");
writeFileSync(
  promtool,
  `#!/bin/sh\nfor f; do :; done\nif [ -e '${refuseMarker}' ] && grep -q '__name__="atan2"' "$f"; then\n` +
    `  echo '  FAILED:' >&2; echo "$f: group: could not parse expression: unexpected <op:atan2> in aggregation" >&2; exit 1\n` +
    `fi\nexec /usr/bin/promtool "$@"\n`,
);
chmodSync(promtool, 0o755);

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const id = randomUUID().slice(0, 8);
const words = `words-${id}`;
const normal = `normal-${id}`;
const legacy = `legacy-${id}`;
const editor = testUser("rules-isolation");
let exporter: FixtureExporter;
let prometheus: PrometheusServer;
let prom: CoalescingClient;

const native = (metric: string): MetricSource => ({ preset: "custom", metric, matchers: {}, kind: "native" });
const classic = (metric: string): MetricSource => ({ preset: "custom", metric, matchers: { component: "fast" } });

async function withBudget(slug: string, source: MetricSource, endToEndSource: MetricSource | null) {
  await createService({ db, actor: editor, input: { slug, name: slug, targetMs: 700, stages: [] } });
  const row = await db.service.findUniqueOrThrow({ where: { slug }, select: { id: true } });
  await db.budget.update({
    where: { serviceId: row.id },
    data: {
      endToEndSource: endToEndSource ?? undefined,
      stages: [
        { name: "Model", components: [{ name: "Decode", budgetMs: { p50: null, p95: 300, p99: null }, source }] },
      ],
    },
  });
}

async function loadedGroups(): Promise<string[]> {
  const response = await fetch(`${prometheus.url}/api/v1/rules`);
  const body = (await response.json()) as { data: { groups: { name: string }[] } };
  return body.data.groups.map((g) => g.name);
}

beforeAll(async () => {
  exporter = await startFixtureExporter();
  prometheus = await startPrometheus({
    targets: [exporter.target],
    scrapeInterval: "1s",
    ruleFiles: [join(dir, "rules", "*.yaml")],
  });
  Object.assign(process.env, {
    PROMETHEUS_URL: prometheus.url,
    LB_RULES_FILE: rulesFile,
    LB_PROMTOOL: promtool,
  });
  prom = coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 10_000 }), { ttlMs: 0 });
  // Accepted by the schema: atan2 and inf are legal metric names.
  await withBudget(words, native("atan2"), native("inf"));
  await withBudget(normal, classic("fixture_latency_seconds"), null);
}, 90_000);

afterAll(async () => {
  await prometheus?.close();
  await exporter?.stop();
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});

describe("metrics named like every PromQL keyword and function", () => {
  it("give a rule file Prometheus's own parser (promtool) accepts, every group kept", () => {
    const services: RuleService[] = PROMQL_WORDS.map((word, i) => ({
      slug: `w${i}`,
      name: word,
      budget: {
        indicator: "TTFT",
        targetMs: 700,
        quantile: 0.95,
        endToEndSource: native(word),
        stages: [
          {
            name: "Model",
            components: [{ name: "Decode", budgetMs: { p50: null, p95: 300, p99: null }, source: classic(word) }],
          },
        ],
      },
      slos: [],
    }));
    const set = buildRuleSet(services, { dashboardUrl: "http://lb.test", componentFor: "5m" });
    expect(set.leftOut).toEqual([]);
    expect(set.groups).toHaveLength(PROMQL_WORDS.length);
    const file = join(dir, "words.yaml");
    writeFileSync(file, renderRules(set.groups, "prometheus", "words"));
    expect(execFileSync("/usr/bin/promtool", ["check", "rules", file], { encoding: "utf8" })).toContain(
      `SUCCESS: ${2 * PROMQL_WORDS.length} rules found`,
    );
  });
});

describe("one service's rules never hold up another's", () => {
  it("metrics named atan2 and inf: a promtool-clean file, both services loaded, rules.yaml answers 200", async () => {
    await syncRulesFile({ db, prom });
    const text = readFileSync(rulesFile, "utf8");
    // promtool itself (not the wrapper's refusal) accepts the file the app wrote.
    expect(execFileSync("/usr/bin/promtool", ["check", "rules", rulesFile], { encoding: "utf8" })).toMatch(/SUCCESS/);
    expect(text).toContain('{__name__="atan2"}');
    expect(text).toContain('{__name__="inf"}');
    await expect
      .poll(loadedGroups, { timeout: 15_000 })
      .toEqual(expect.arrayContaining([`latency_budgets/${words}/budget`, `latency_budgets/${normal}/budget`]));
    for (const slug of [words, normal]) {
      const view = await getAlerts({ db, prom, query: { service: slug } });
      expect(view).toMatchObject({ rulesLoaded: true, rulesError: null, rulesLeftOut: [] });
    }
    for (const [handler, path, params] of [
      [allRulesRoute.GET, "/api/rules.yaml", {}],
      [rulesRoute.GET, `/api/services/${words}/rules.yaml`, { slug: words }],
    ] as const) {
      const response = await call(handler as Handler, { path, params });
      expect(response.status).toBe(200);
      expect(response.body).toContain('histogram_quantile(0.95, sum(rate({__name__="inf"}[5m]))) > 0.7');
    }
  }, 60_000);

  it("a group promtool refuses is left out alone: the others load, and that service's alerts say why", async () => {
    writeFileSync(refuseMarker, "");
    await withBudget(legacy, classic("fixture_latency_seconds"), null);
    await syncRulesFile({ db, prom });
    rmSync(refuseMarker);
    const text = readFileSync(rulesFile, "utf8");
    expect(text).toMatch(
      new RegExp(`^# Left out: latency_budgets/${words}/budget \\(service ${words}\\): .*atan2`, "m"),
    );
    await expect.poll(loadedGroups, { timeout: 15_000 }).toContain(`latency_budgets/${legacy}/budget`);
    const groups = await loadedGroups();
    expect(groups).toContain(`latency_budgets/${normal}/budget`);
    expect(groups).not.toContain(`latency_budgets/${words}/budget`);

    const theirs = await call(alertsRoute.GET as Handler, { path: `/api/alerts?service=${words}` });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ rulesLoaded: false, rulesError: null });
    expect(theirs.body.rulesLeftOut).toEqual([
      {
        service: words,
        group: `latency_budgets/${words}/budget`,
        reason: expect.stringMatching(/unexpected <op:atan2>/),
      },
    ]);
    // promtool's words, without the temporary file it was shown.
    expect(theirs.body.rulesLeftOut[0].reason).not.toContain(tmpdir());
    for (const slug of [normal, legacy]) {
      const view = await getAlerts({ db, prom, query: { service: slug } });
      expect(view).toMatchObject({ rulesLoaded: true, rulesError: null, rulesLeftOut: [] });
    }
  }, 60_000);

  it("a group that cannot be written at all (a name stored before names were checked) is left out alone", async () => {
    const row = await db.service.findUniqueOrThrow({ where: { slug: legacy }, select: { id: true } });
    await db.budget.update({
      where: { serviceId: row.id },
      data: {
        stages: [
          {
            name: "Model",
            components: [
              { name: "Decode", budgetMs: { p50: null, p95: 300, p99: null }, source: classic("http.server.duration") },
            ],
          },
        ],
      },
    });
    await syncRulesFile({ db, prom });
    const all = await call(allRulesRoute.GET as Handler, { path: "/api/rules.yaml" });
    expect(all.status).toBe(200);
    expect(all.body).toContain(
      `# Left out: latency_budgets/${legacy}/budget (service ${legacy}): its rules could not be written`,
    );
    await expect.poll(loadedGroups, { timeout: 15_000 }).not.toContain(`latency_budgets/${legacy}/budget`);
    expect(await loadedGroups()).toEqual(
      expect.arrayContaining([`latency_budgets/${words}/budget`, `latency_budgets/${normal}/budget`]),
    );
    const view = await getAlerts({ db, prom, query: { service: legacy } });
    expect(view.rulesLeftOut).toEqual([
      {
        service: legacy,
        group: `latency_budgets/${legacy}/budget`,
        reason: 'its rules could not be written: Not a metric name: "http.server.duration_bucket"',
      },
    ]);
    expect((await getAlerts({ db, prom, query: { service: normal } })).rulesLoaded).toBe(true);
  }, 60_000);
});
