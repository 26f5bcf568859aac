import "server-only";
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { databaseNow, findRuleFileSync, recordRuleFileReload, writeRuleFileOnce } from "@/lib/db/rule-file";
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

const INSTANCE = `${hostname()}:${process.pid}`;

/** promtool, when this machine has it: LB_PROMTOOL, else the first on PATH. */
function findPromtool(): string | null {
  const configured = env().LB_PROMTOOL;
  if (configured) return configured;
  for (const dir of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const candidate = join(dir, "promtool");
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

const run = promisify(execFile);

/** Why promtool refuses the file, or null when it accepts it (or is not installed). */
async function promtoolProblem(file: string): Promise<string | null> {
  const promtool = findPromtool();
  if (!promtool) return null;
  try {
    await run(promtool, ["check", "rules", file], { timeout: 30_000 });
    return null;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message?: string };
    return `promtool check rules refused it: ${(e.stderr || e.stdout || e.message || "").trim().slice(0, 1500)}`;
  }
}

/**
 * Writes `text` to `path` only if promtool (when installed) accepts it, by an atomic rename: a
 * reader sees the old file or the new one, never half of one.
 */
async function writeCheckedFile(
  path: string,
  text: string,
): Promise<{ ok: true; checksum: string } | { ok: false; error: string }> {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  writeFileSync(temporary, text);
  const problem = await promtoolProblem(temporary);
  if (problem) {
    rmSync(temporary, { force: true });
    return { ok: false, error: problem };
  }
  renameSync(temporary, path);
  return { ok: true, checksum: createHash("sha256").update(text).digest("hex") };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Writes every service's rules where the demo's Prometheus reads them, then reloads it. A no-op
 * unless LB_RULES_FILE is set. Several instances may share the file: the newest snapshot of the
 * database wins (lib/db/rule-file.ts). A file that fails the checks is never written, and what
 * went wrong (a refused file, a failed reload) is recorded for the alerts views to show; it is
 * never passed to the save that triggered the rewrite.
 */
export function syncRulesFile({ db, prom }: { db: Db; prom: CoalescingClient | null }): Promise<void> {
  const { LB_RULES_FILE } = env();
  if (!LB_RULES_FILE) return Promise.resolve();
  const write = async () => {
    const snapshotAt = await databaseNow(db);
    let text: string | null = null;
    let failure: string | null = null;
    try {
      text = (await getRulesFile({ db, prom, dashboardUrl: `http://localhost:${process.env.PORT ?? 3000}` })).text;
    } catch (error) {
      failure = `The rules could not be generated: ${messageOf(error)}`;
    }
    const wrote = await writeRuleFileOnce(db, { snapshotAt, instance: INSTANCE }, async () =>
      text === null ? { ok: false, error: failure! } : writeCheckedFile(LB_RULES_FILE, text),
    );
    const outcome = wrote ? await findRuleFileSync(db) : null;
    if (outcome && !outcome.ok) console.error(`The rule file ${LB_RULES_FILE} was not written: ${outcome.error}`);
    if (!wrote || !outcome?.ok || !prom) return;
    const reloaded = await prom.reload();
    const error = reloaded.ok ? null : `Prometheus did not reload the rules: ${reloaded.error}`;
    if (error) console.error(error);
    await recordRuleFileReload(db, snapshotAt, error);
    forgetLoadedRules(prom);
  };
  const start = (): Promise<void> => {
    const running = write()
      .catch((error: unknown) => console.error(`Could not write the rule file ${LB_RULES_FILE}: ${messageOf(error)}`))
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

/** What went wrong with the shared rule file, for the alerts views; null when all is well or the app writes none. */
export async function ruleFileProblem(db: Db): Promise<string | null> {
  if (!env().LB_RULES_FILE) return null;
  const row = await findRuleFileSync(db);
  if (!row || row.ok) return null;
  return `${row.error ?? "The rule file could not be written."} (${row.at.toLocaleString("en-GB", { timeZone: "UTC" })} UTC, by ${row.instance})`;
}

/** Called by every mutation of a budget, an SLO or a service: keeps the demo's rules current. */
export function rulesChanged(db: Db): void {
  void syncRulesFile({ db, prom: prometheus() });
}
