import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { coalesce, type CoalescingClient } from "@/lib/prometheus/coalesce";
import { startPrometheus, type PrometheusServer } from "@/scripts/stack/prometheus";
import { startFixtureExporter, type FixtureExporter } from "@/test/fixture-exporter";
import { testUser } from "@/test/actors";
import { getAlerts, RULES_NOT_CURRENT } from "./alerts";
import { syncRulesFile } from "./rules";
import { createService } from "./services";

// The demo's path from a saved budget to a loaded rule: the rule file is written where a real
// Prometheus reads it, checked by promtool first, and reloaded. Names people typed reach the
// firing alert as text; a reload Prometheus refuses, or a file promtool refuses, shows in the
// alerts view instead of a quiet "rules loaded".

const dir = mkdtempSync(join(tmpdir(), "lb-rules-sync-"));
const rulesFile = join(dir, "rules", "latency-budgets.rules.yaml");
const refuseMarker = join(dir, "refuse");
// A slow promtool says when it starts checking and takes 3 s; a hung one never answers.
const slowMarker = join(dir, "slow");
const startedMarker = join(dir, "started");
const hangMarker = join(dir, "hang");
const fakePromtool = join(dir, "promtool");
writeFileSync(
  fakePromtool,
  `#!/bin/sh\n[ -e '${refuseMarker}' ] && { echo 'refused by the test' >&2; exit 1; }\n` +
    `[ -e '${slowMarker}' ] && { touch '${startedMarker}'; sleep 3; }\n` +
    `[ -e '${hangMarker}' ] && exec sleep 120\n` +
    `exec /usr/bin/promtool "$@"\n`,
);
chmodSync(fakePromtool, 0o755);

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const slug = `sync-${randomUUID().slice(0, 8)}`;
const component = 'Network {{ with query "vector(42)" }}{{ . | first | value }}{{ end }}';
const stage = "{{ broken";
const serviceName = 'Chat "quoted" {{ 1 }}';
// Only an admin reads why the rules are not current (it names files, hosts and promtool's output).
const admin = testUser("rules-admin", "admin");
let exporter: FixtureExporter;
let prometheus: PrometheusServer;
let prom: CoalescingClient;

type PromAlert = { labels: Record<string, string>; annotations: Record<string, string>; state: string };

async function firingFor(service: string): Promise<PromAlert[]> {
  const response = await fetch(`${prometheus.url}/api/v1/alerts`);
  const body = (await response.json()) as { data: { alerts: PromAlert[] } };
  return body.data.alerts.filter((a) => a.labels.service === service && a.state === "firing");
}

beforeAll(async () => {
  exporter = await startFixtureExporter();
  prometheus = await startPrometheus({
    targets: [exporter.target],
    scrapeInterval: "1s",
    ruleFiles: [join(dir, "rules", "*.yaml")],
  });
  // Read once by lib/env.ts, at the first call, which comes after this.
  Object.assign(process.env, {
    PROMETHEUS_URL: prometheus.url,
    LB_RULES_FILE: rulesFile,
    LB_PROMTOOL: fakePromtool,
    LB_ALERT_FOR: "1s",
  });
  prom = coalesce(createPrometheusClient(prometheus.url, { timeoutMs: 10_000 }), { ttlMs: 0 });
  await createService({
    db,
    actor: testUser("rules-sync"),
    input: { slug, name: "Sync", targetMs: 700, stages: [] },
  });
  // Names stored before names were checked (or by a path that skips the check): the rule file
  // must still print them, never evaluate them.
  const row = await db.service.update({ where: { slug }, data: { name: serviceName }, select: { id: true } });
  await db.budget.update({
    where: { serviceId: row.id },
    data: {
      stages: [
        {
          name: stage,
          components: [
            {
              name: component,
              budgetMs: { p50: null, p95: 1, p99: null },
              source: { preset: "custom", metric: "fixture_latency_seconds", matchers: { component: "slow" } },
            },
          ],
        },
      ],
    },
  });
}, 90_000);

afterAll(async () => {
  await prometheus?.close();
  await exporter?.stop();
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});

describe("the rule file Prometheus reads", () => {
  it("reaches a real Prometheus with typed names as text: the firing alert carries them verbatim", async () => {
    await syncRulesFile({ db, prom });
    expect(existsSync(rulesFile)).toBe(true);
    await expect
      .poll(async () => (await firingFor(slug)).find((a) => a.labels.alertname === "ComponentOverBudget"), {
        timeout: 30_000,
        interval: 500,
      })
      .toBeTruthy();
    const [alert] = (await firingFor(slug)).filter((a) => a.labels.alertname === "ComponentOverBudget");
    expect(alert!.labels).toMatchObject({ component, stage, service: slug });
    // The slow component's p95 lands in the +Inf bucket: Prometheus answers the top finite bound, 1 s.
    expect(alert!.annotations.summary).toBe(`${serviceName}: ${component} p95 is 1s, over its 1 ms budget`);
    const view = await getAlerts({ db, prom, query: { service: slug } });
    expect(view).toMatchObject({ rulesLoaded: true, rulesError: null });
  }, 60_000);

  it("a reload Prometheus refuses shows as rules not loaded, with the reason, until it succeeds", async () => {
    const broken = join(dir, "rules", "someone-elses.yaml");
    writeFileSync(
      broken,
      "groups:\n  - name: theirs\n    rules:\n      - alert: Theirs\n        expr: up == 0\n        labels: { x: '{{ broken' }\n",
    );
    // Reloaded by someone else: Prometheus itself says its last reload failed.
    expect((await prom.reload()).ok).toBe(false);
    const theirs = await getAlerts({ db, prom, query: { service: slug }, viewer: admin });
    expect(theirs.rulesLoaded).toBe(false);
    expect(theirs.rulesError).toMatch(/last reload of its configuration failed/);
    // Reloaded by the app after a change: the reason Prometheus gave is kept and shown.
    await syncRulesFile({ db, prom });
    const failed = await getAlerts({ db, prom, query: { service: slug }, viewer: admin });
    expect(failed.rulesLoaded).toBe(false);
    expect(failed.rulesError).toMatch(/Prometheus did not reload the rules: HTTP 500/);
    rmSync(broken);
    await syncRulesFile({ db, prom });
    await expect
      .poll(async () => (await getAlerts({ db, prom, query: { service: slug } })).rulesLoaded, { timeout: 10_000 })
      .toBe(true);
  }, 60_000);

  it("a file promtool refuses is never written, and the alerts view says so", async () => {
    const before = readFileSync(rulesFile, "utf8");
    writeFileSync(refuseMarker, "");
    await db.service.update({ where: { slug }, data: { name: "Renamed while promtool refuses" } });
    await syncRulesFile({ db, prom });
    expect(readFileSync(rulesFile, "utf8")).toBe(before);
    const view = await getAlerts({ db, prom, query: { service: slug }, viewer: admin });
    expect(view.rulesLoaded).toBe(false);
    expect(view.rulesError).toMatch(/promtool check rules refused it: refused by the test/);
    // Anyone else (an editor, nobody, a caller that names no viewer) is told that, not why.
    for (const viewer of [testUser("rules-editor", "editor"), { kind: "anonymous" } as const, undefined]) {
      const told = await getAlerts({ db, prom, query: { service: slug }, viewer });
      expect(told).toMatchObject({ rulesLoaded: false, rulesError: RULES_NOT_CURRENT });
      expect(JSON.stringify(told)).not.toContain(dir);
      expect(JSON.stringify(told)).not.toMatch(/promtool|refused by the test/);
    }
    rmSync(refuseMarker);
    await syncRulesFile({ db, prom });
    expect(readFileSync(rulesFile, "utf8")).toContain("Renamed while promtool refuses");
    expect((await getAlerts({ db, prom, query: { service: slug } })).rulesError).toBeNull();
  }, 60_000);

  it("the database answers while promtool checks the file: the check runs before the rule file's lock", async () => {
    // The embedded database's single connection (this db has one, like the app on PGlite).
    await db.service.update({ where: { slug }, data: { name: "Renamed while promtool is slow" } });
    writeFileSync(slowMarker, "");
    try {
      const sync = syncRulesFile({ db, prom });
      await expect.poll(() => existsSync(startedMarker), { timeout: 20_000, interval: 10 }).toBe(true);
      // promtool sleeps 3 s from here; a query waiting for the lock's transaction would take about that.
      const started = performance.now();
      await db.service.count();
      const tookMs = performance.now() - started;
      await sync;
      expect(tookMs).toBeLessThan(1_500);
    } finally {
      rmSync(slowMarker, { force: true });
      rmSync(startedMarker, { force: true });
    }
    expect(readFileSync(rulesFile, "utf8")).toContain("Renamed while promtool is slow");
    expect((await getAlerts({ db, prom, query: { service: slug } })).rulesError).toBeNull();
  }, 60_000);

  it("a promtool that does not answer in time leaves the file as it was, and the alerts view says why", async () => {
    const before = readFileSync(rulesFile, "utf8");
    await db.service.update({ where: { slug }, data: { name: "Renamed while promtool hangs" } });
    writeFileSync(hangMarker, "");
    try {
      const started = performance.now();
      await syncRulesFile({ db, prom, promtoolTimeoutMs: 1_000 });
      // Given up once, not once more per group.
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      rmSync(hangMarker, { force: true });
    }
    expect(readFileSync(rulesFile, "utf8")).toBe(before);
    const view = await getAlerts({ db, prom, query: { service: slug }, viewer: admin });
    expect(view.rulesLoaded).toBe(false);
    expect(view.rulesError).toMatch(
      /promtool check rules did not finish within 1 s, so the rule file was left as it was/,
    );
    expect(readdirSync(dirname(rulesFile)).filter((f) => f.includes(".tmp-"))).toEqual([]);
    await syncRulesFile({ db, prom });
    expect(readFileSync(rulesFile, "utf8")).toContain("Renamed while promtool hangs");
    expect((await getAlerts({ db, prom, query: { service: slug } })).rulesError).toBeNull();
  }, 60_000);
});
