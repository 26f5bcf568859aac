import "server-only";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { listServiceRows, type ServiceRow } from "@/lib/db/services";
import { listSloRows } from "@/lib/db/slos";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { prometheus } from "@/lib/prometheus/instance";
import { forgetLoadedRules } from "@/lib/prometheus/loaded-rules";
import {
  buildRuleGroups,
  renderRules,
  type RuleGroup,
  type RuleService,
  type RulesFormat,
} from "@/lib/prometheus/rules";
import { countSloThreshold } from "@/lib/prometheus/sli";
import { parseInput } from "@/lib/schemas/parse";

// The rule file of one service or of all of them, from what is stored now and the histograms'
// real bucket bounds. In the demo (LB_RULES_FILE set) every budget or SLO change rewrites the
// file its Prometheus reads and asks Prometheus to reload; pointed at someone else's Prometheus
// the app never writes anything and offers the file for download instead.

const rulesQuerySchema = z.object({
  format: z
    .enum(["prometheus", "prometheusrule"], { error: "format is prometheus (a rule file) or prometheusrule" })
    .default("prometheus"),
  for: z
    .string()
    .regex(/^[1-9][0-9]{0,3}[smh]$/, "for is a duration like 30s, 5m or 1h")
    .optional(),
});

async function ruleService(db: Db, prom: CoalescingClient | null, row: ServiceRow, time: number): Promise<RuleService> {
  const slos = await listSloRows(db, row.id);
  return {
    slug: row.slug,
    name: row.name,
    budget: row.budget,
    slos: await Promise.all(slos.map(async (slo) => ({ ...slo, counted: await countSloThreshold(prom, slo, time) }))),
  };
}

/** The rule groups of one service or of all of them, before rendering (the report lists their alerts). */
export async function getRuleGroups({
  db,
  prom,
  slug,
  dashboardUrl,
  componentFor,
  now = Date.now() / 1000,
}: {
  db: Db;
  prom: CoalescingClient | null;
  slug?: string;
  dashboardUrl: string;
  componentFor?: string;
  now?: number;
}): Promise<RuleGroup[]> {
  const rows = (await listServiceRows(db)).filter((row) => slug === undefined || row.slug === slug);
  if (slug !== undefined && rows.length === 0) throw new AppError("NOT_FOUND", `No service called “${slug}”.`);
  const time = Math.floor(now);
  const services = await Promise.all(rows.map((row) => ruleService(db, prom, row, time)));
  return buildRuleGroups(services, {
    dashboardUrl: env().LB_PUBLIC_URL ?? dashboardUrl,
    componentFor: componentFor ?? env().LB_ALERT_FOR,
  });
}

export async function getRulesFile({
  db,
  prom,
  slug,
  query = {},
  dashboardUrl,
  now = Date.now() / 1000,
}: {
  db: Db;
  prom: CoalescingClient | null;
  /** One service, or every service when absent. */
  slug?: string;
  query?: unknown;
  dashboardUrl: string;
  now?: number;
}): Promise<{ text: string; filename: string; format: RulesFormat }> {
  const options = parseInput(rulesQuerySchema, query, "The query");
  const groups = await getRuleGroups({ db, prom, slug, dashboardUrl, componentFor: options.for, now });
  const name = slug ? `latency-budgets-${slug}` : "latency-budgets";
  return {
    text: renderRules(groups, options.format, name),
    filename: `${name}${options.format === "prometheusrule" ? ".prometheusrule" : ".rules"}.yaml`,
    format: options.format,
  };
}

// At most one rewrite runs and one waits: changes made while a rewrite runs are all picked up by
// the one that waits, so a burst of saves costs two rewrites, and writes never interleave.
type SyncState = { running: Promise<void> | null; queued: Promise<void> | null };
const globalForRules = globalThis as unknown as { latencyBudgetsRulesSync?: SyncState };
const syncState = (globalForRules.latencyBudgetsRulesSync ??= { running: null, queued: null });

/**
 * Writes every service's rules where the demo's Prometheus reads them, then reloads it. A no-op
 * unless LB_RULES_FILE is set; failures are logged, never passed to the save that triggered them.
 */
export function syncRulesFile({ db, prom }: { db: Db; prom: CoalescingClient | null }): Promise<void> {
  const { LB_RULES_FILE } = env();
  if (!LB_RULES_FILE) return Promise.resolve();
  const write = async () => {
    const { text } = await getRulesFile({ db, prom, dashboardUrl: "http://localhost:3000" });
    mkdirSync(dirname(LB_RULES_FILE), { recursive: true });
    const temporary = `${LB_RULES_FILE}.tmp-${process.pid}`;
    writeFileSync(temporary, text);
    renameSync(temporary, LB_RULES_FILE);
    if (prom) {
      const reloaded = await prom.reload();
      if (!reloaded.ok) console.error(`Prometheus did not reload the rules: ${reloaded.error}`);
      forgetLoadedRules(prom);
    }
  };
  const start = (): Promise<void> => {
    const running = write()
      .catch((error: unknown) => {
        console.error(
          `Could not write the rule file ${LB_RULES_FILE}: ${error instanceof Error ? error.message : error}`,
        );
      })
      .finally(() => {
        if (syncState.running === running) syncState.running = null;
      });
    syncState.running = running;
    return running;
  };
  if (syncState.queued) return syncState.queued;
  if (syncState.running) {
    const queued = syncState.running.then(() => {
      syncState.queued = null;
      return start();
    });
    syncState.queued = queued;
    return queued;
  }
  return start();
}

/** Called by every mutation of a budget, an SLO or a service: keeps the demo's rules current. */
export function rulesChanged(db: Db): void {
  void syncRulesFile({ db, prom: prometheus() });
}
