import "server-only";
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import {
  databaseNow,
  findRuleFileSync,
  recordRuleFileReload,
  writeRuleFileOnce,
  type LeftOutRuleGroup,
} from "@/lib/db/rule-file";
import { listServiceRows, type ServiceRow } from "@/lib/db/services";
import { listSloRows } from "@/lib/db/slos";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { prometheus } from "@/lib/prometheus/instance";
import { forgetLoadedRules } from "@/lib/prometheus/loaded-rules";
import {
  RULE_PREFIX,
  buildRuleSet,
  renderRules,
  type RuleGroup,
  type RuleService,
  type RuleSet,
  type RulesFormat,
} from "@/lib/prometheus/rules";
import { withDocumentKinds, withKind } from "@/lib/prometheus/kinds";
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
    // Sources stored without their kind are written as the histogram Prometheus has (lib/prometheus/kinds.ts).
    budget: row.budget && (await withDocumentKinds(prom, row.budget)),
    slos: await Promise.all(
      slos.map(async (stored) => {
        const slo = { ...stored, source: await withKind(prom, stored.source) };
        return { ...slo, counted: await countSloThreshold(prom, slo, time) };
      }),
    ),
  };
}

/**
 * The rule groups of one service or of all of them, before rendering, and the groups left out
 * because they failed the checks (each with its service and why).
 */
export async function getRuleSet({
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
}): Promise<RuleSet> {
  const rows = (await listServiceRows(db)).filter((row) => slug === undefined || row.slug === slug);
  if (slug !== undefined && rows.length === 0) throw new AppError("NOT_FOUND", `No service called “${slug}”.`);
  const time = Math.floor(now);
  const services = await Promise.all(rows.map((row) => ruleService(db, prom, row, time)));
  return buildRuleSet(services, {
    dashboardUrl: env().LB_PUBLIC_URL ?? dashboardUrl,
    componentFor: componentFor ?? env().LB_ALERT_FOR,
  });
}

/** The rule groups that pass the checks (the report lists their alerts). */
export async function getRuleGroups(args: Parameters<typeof getRuleSet>[0]): Promise<RuleGroup[]> {
  return (await getRuleSet(args)).groups;
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
}): Promise<{ text: string; filename: string; format: RulesFormat; set: RuleSet }> {
  const options = parseInput(rulesQuerySchema, query, "The query");
  const set = await getRuleSet({ db, prom, slug, dashboardUrl, componentFor: options.for, now });
  const name = slug ? `latency-budgets-${slug}` : "latency-budgets";
  return {
    // A group that fails the checks is left out, named in a comment at the top with why.
    text: renderRules(set.groups, options.format, name, set.leftOut),
    set,
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

/** How long promtool may take over one file before the write is given up (and why is recorded). */
const PROMTOOL_TIMEOUT_MS = 30_000;

type PromtoolVerdict = { ok: true } | { ok: false; timedOut: boolean; problem: string };

/** Whether promtool accepts the file (it does when it is not installed), refuses it, or did not finish in time. */
async function promtoolCheck(file: string, timeoutMs: number): Promise<PromtoolVerdict> {
  const promtool = findPromtool();
  if (!promtool) return { ok: true };
  try {
    await run(promtool, ["check", "rules", file], { timeout: timeoutMs, killSignal: "SIGKILL" });
    return { ok: true };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message?: string; killed?: boolean };
    if (e.killed)
      return {
        ok: false,
        timedOut: true,
        problem: `promtool check rules did not finish within ${timeoutMs / 1000} s, so the rule file was left as it was`,
      };
    return {
      ok: false,
      timedOut: false,
      problem: `promtool check rules refused it: ${(e.stderr || e.stdout || e.message || "").trim().slice(0, 1500)}`,
    };
  }
}

/** The service a generated group belongs to: its name is `latency_budgets/<slug>/…`. */
const serviceOfGroup = (name: string) => name.slice(RULE_PREFIX.length + 1).split("/")[0] ?? "";

/**
 * The groups promtool refuses, each checked in a file of its own, with why (promtool's words,
 * without the temporary file's path); or why the check could not finish.
 */
async function groupsPromtoolRefuses(
  groups: readonly RuleGroup[],
  timeoutMs: number,
): Promise<{ refused: LeftOutRuleGroup[]; timedOut: string | null }> {
  const dir = mkdtempSync(join(tmpdir(), "lb-rule-groups-"));
  const refused: LeftOutRuleGroup[] = [];
  let timedOut: string | null = null;
  try {
    // Two at a time: promtool is a process each, and the machine is shared.
    for (let i = 0; i < groups.length && !timedOut; i += 2) {
      await Promise.all(
        groups.slice(i, i + 2).map(async (group, j) => {
          const file = join(dir, `group-${i + j}.yaml`);
          writeFileSync(file, renderRules([group], "prometheus", "check"));
          const verdict = await promtoolCheck(file, timeoutMs);
          if (verdict.ok) return;
          if (verdict.timedOut) timedOut = verdict.problem;
          else
            refused.push({
              service: serviceOfGroup(group.name),
              group: group.name,
              reason: verdict.problem.split(file).join("the group").replace(/\s+/g, " ").slice(0, 600),
            });
        }),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { refused, timedOut };
}

/** A checked rule file waiting beside its destination to be renamed into place, or why there is none. */
type Candidate = ({ ok: true; checksum: string; temporary: string } | { ok: false; error: string }) & {
  leftOut: LeftOutRuleGroup[];
};

/**
 * Writes the set's groups to a temporary file beside `path` and has promtool (when installed)
 * check it. When promtool refuses the file, each group is checked on its own and those it refuses
 * are left out, so one service's broken rules never keep the others from loading. Runs before the
 * rule file's lock is taken: on the embedded database that lock's transaction holds the app's only
 * connection, so nothing slow may happen inside it.
 */
async function checkedCandidate(path: string, set: RuleSet, timeoutMs: number): Promise<Candidate> {
  mkdirSync(dirname(path), { recursive: true });
  let { groups, leftOut } = set;
  const attempt = async () => {
    const text = renderRules(groups, "prometheus", "latency-budgets", leftOut);
    const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
    writeFileSync(temporary, text);
    const verdict = await promtoolCheck(temporary, timeoutMs);
    if (!verdict.ok) rmSync(temporary, { force: true });
    return { text, temporary, verdict };
  };
  let written = await attempt();
  if (!written.verdict.ok && !written.verdict.timedOut && groups.length > 0) {
    const { refused, timedOut } = await groupsPromtoolRefuses(groups, timeoutMs);
    if (timedOut) return { ok: false, error: timedOut, leftOut: set.leftOut };
    if (refused.length > 0) {
      const names = new Set(refused.map((g) => g.group));
      groups = groups.filter((g) => !names.has(g.name));
      leftOut = [...leftOut, ...refused];
      written = await attempt();
    }
  }
  // Refused even without the groups promtool refused alone: promtool's answers say nothing of them.
  if (!written.verdict.ok) return { ok: false, error: written.verdict.problem, leftOut: set.leftOut };
  const checksum = createHash("sha256").update(written.text).digest("hex");
  return { ok: true, checksum, temporary: written.temporary, leftOut };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Writes every service's rules where the demo's Prometheus reads them, then reloads it. A no-op
 * unless LB_RULES_FILE is set. Several instances may share the file: the newest snapshot of the
 * database wins (lib/db/rule-file.ts). A file that fails the checks is never written, and what
 * went wrong (a refused file, a failed reload) is recorded for the alerts views to show; it is
 * never passed to the save that triggered the rewrite.
 */
export function syncRulesFile({
  db,
  prom,
  promtoolTimeoutMs = PROMTOOL_TIMEOUT_MS,
}: {
  db: Db;
  prom: CoalescingClient | null;
  promtoolTimeoutMs?: number;
}): Promise<void> {
  const { LB_RULES_FILE } = env();
  if (!LB_RULES_FILE) return Promise.resolve();
  const write = async () => {
    const snapshotAt = await databaseNow(db);
    const prepare = async (): Promise<Candidate | null> => {
      let set: RuleSet;
      try {
        set = await getRuleSet({ db, prom, dashboardUrl: `http://localhost:${process.env.PORT ?? 3000}` });
      } catch (error) {
        return { ok: false, error: `The rules could not be generated: ${messageOf(error)}`, leftOut: [] };
      }
      // A newer snapshot's file is on disk already: nothing to check.
      const last = await findRuleFileSync(db);
      if (last && last.at >= snapshotAt) return null;
      try {
        return await checkedCandidate(LB_RULES_FILE, set, promtoolTimeoutMs);
      } catch (error) {
        return { ok: false, error: `The rule file could not be checked: ${messageOf(error)}`, leftOut: set.leftOut };
      }
    };
    const candidate = await prepare();
    if (!candidate) return;
    // Inside the lock only what is quick: compare the snapshot, rename the checked file into place
    // (atomic: a reader sees the old file or the new one), record the outcome.
    let renamed = false;
    let wrote: boolean;
    try {
      wrote = await writeRuleFileOnce(db, { snapshotAt, instance: INSTANCE }, async () => {
        if (!candidate.ok) return candidate;
        renameSync(candidate.temporary, LB_RULES_FILE);
        renamed = true;
        return candidate;
      });
    } finally {
      if (candidate.ok && !renamed) rmSync(candidate.temporary, { force: true });
    }
    const outcome = wrote ? await findRuleFileSync(db) : null;
    if (outcome && !outcome.ok) console.error(`The rule file ${LB_RULES_FILE} was not written: ${outcome.error}`);
    for (const g of outcome?.leftOut ?? []) console.error(`The rule group ${g.group} was left out: ${g.reason}`);
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

/**
 * The groups left out of the shared rule file (of one service, or all), each with why: they
 * failed the checks, and every other group was loaded. Empty when the app writes no rule file.
 */
export async function rulesLeftOut(db: Db, service?: string): Promise<LeftOutRuleGroup[]> {
  if (!env().LB_RULES_FILE) return [];
  const row = await findRuleFileSync(db);
  return (row?.leftOut ?? []).filter((g) => service === undefined || g.service === service);
}

/** Called by every mutation of a budget, an SLO or a service: keeps the demo's rules current. */
export function rulesChanged(db: Db): void {
  void syncRulesFile({ db, prom: prometheus() });
}
