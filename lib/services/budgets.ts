import "server-only";
import { LRUCache } from "lru-cache";
import { countCacheLookup, reportCacheSize } from "@/lib/observability/metrics";
import type { BudgetDocument } from "@/lib/domain/budget";
import { diffBudgets, type BudgetChange } from "@/lib/domain/budget-diff";
import type { Db } from "@/lib/db/client";
import { findRevisionRow, listRevisionRows, updateBudgetIfVersion, type RevisionRow } from "@/lib/db/budgets";
import type { ServiceRow } from "@/lib/db/services";
import { AppError } from "@/lib/errors";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { withDocumentKinds } from "@/lib/prometheus/kinds";
import { saveBudgetSchema } from "@/lib/schemas/budget";
import { parseInput } from "@/lib/schemas/parse";
import { z } from "zod";
import { authorOf, type Actor, type ServiceMutation } from "./actor";
import { recordAudit, type AuditRecord } from "./audit";
import { authorLabels } from "./authors";
import { mutation } from "./mutation";
import { rulesChanged } from "./rules";
import { getServiceOrThrow } from "./services";

export type BudgetView = BudgetDocument & { slug: string; version: number; updatedAt: string; updatedBy: string };

export type RevisionView = {
  version: number;
  author: string;
  createdAt: string;
  message: string;
  restoredFrom: number | null;
  changes: BudgetChange[];
  snapshot: BudgetDocument;
};

function documentOf(budget: BudgetDocument): BudgetDocument {
  return {
    indicator: budget.indicator,
    targetMs: budget.targetMs,
    quantile: budget.quantile,
    stages: budget.stages,
    endToEndSource: budget.endToEndSource ?? null,
  };
}

export function budgetViewOf(slug: string, budget: NonNullable<ServiceRow["budget"]>): BudgetView {
  return {
    slug,
    version: budget.version,
    ...documentOf(budget),
    updatedAt: budget.updatedAt.toISOString(),
    updatedBy: budget.updatedBy,
  };
}

/** The budget with its author as stored (an email, a token's name): for this module's own use only. */
async function readBudgetAsStored(db: Db, slug: string): Promise<BudgetView> {
  const { budget } = await getServiceOrThrow({ db, slug });
  return budgetViewOf(slug, budget);
}

/**
 * The budget as `viewer` reads it: who saved it last by name only, unless signed in
 * (./authors.ts). No viewer means an answer anyone may see: names only. Every budget read this
 * module exports shows authors this way, so a page cannot show an email to an anonymous viewer.
 */
export async function getBudget({ db, slug, viewer }: { db: Db; slug: string; viewer?: Actor }): Promise<BudgetView> {
  const view = await readBudgetAsStored(db, slug);
  return { ...view, updatedBy: (await authorLabels(db, viewer, [view.updatedBy]))(view.updatedBy) };
}

// Live views read the budget on every refresh; a short-lived copy spares the database those
// reads. A save in this process drops it at once; other instances see a save within the TTL.
export const BUDGET_CACHE_TTL_MS = 2000;
const globalForBudgets = globalThis as unknown as { latencyBudgetsBudgetCache?: LRUCache<string, BudgetView> };
// Bounded in entries and bytes like every cache (a budget is a few KB).
const budgetCache = (globalForBudgets.latencyBudgetsBudgetCache ??= new LRUCache<string, BudgetView>({
  max: 2000,
  maxSize: 16 << 20,
  sizeCalculation: (view) => 2 * JSON.stringify(view).length,
  ttl: BUDGET_CACHE_TTL_MS,
  updateAgeOnGet: false,
}));
reportCacheSize("budget", () => ({ entries: budgetCache.size, bytes: budgetCache.calculatedSize }));

export function forgetCachedBudget(slug: string): void {
  budgetCache.delete(slug);
}

/** Keeps a budget just read with others (the status board reads them all at once). */
export function primeCachedBudget(view: BudgetView): void {
  budgetCache.set(view.slug, withoutAuthor(view));
}

/** Live views are shared by every viewer and never show who saved the budget: the copy they read has no author. */
const withoutAuthor = (view: BudgetView): BudgetView => ({ ...view, updatedBy: "" });

/** The budget for read-only live views, at most BUDGET_CACHE_TTL_MS old, with no author (updatedBy ""). */
export async function getBudgetForLiveView({ db, slug }: { db: Db; slug: string }): Promise<BudgetView> {
  const hit = budgetCache.get(slug);
  countCacheLookup("budget", hit !== undefined);
  if (hit) return hit;
  const view = withoutAuthor(await readBudgetAsStored(db, slug));
  budgetCache.set(slug, view);
  return view;
}

function toRevisionView(row: RevisionRow): RevisionView {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

async function conflict(db: Db, slug: string, baseVersion: number): Promise<AppError> {
  const current = await readBudgetAsStored(db, slug);
  const service = await getServiceOrThrow({ db, slug });
  const theirs = await listRevisionRows(db, service.id, { limit: 50 });
  const since = theirs.filter((r) => r.version > baseVersion).map(toRevisionView);
  const who = [...new Set(since.map((r) => r.author))].join(", ") || "someone";
  return new AppError(
    "CONFLICT",
    `This budget was saved by ${who} since you opened it (you edited version ${baseVersion}, it is now at version ${current.version}). Review their change and apply yours again.`,
    undefined,
    { current, revisionsSince: since },
  );
}

async function writeBudget(
  db: Db,
  options: {
    slug: string;
    actor: Actor;
    baseVersion: number;
    document: BudgetDocument;
    message: string;
    restoredFrom: number | null;
    /** The audit entry of the new version (and its changes), stored in the same transaction. */
    audit: (version: number, changes: BudgetChange[]) => AuditRecord;
  },
): Promise<BudgetView> {
  const service = await getServiceOrThrow({ db, slug: options.slug });
  if (service.budget.version !== options.baseVersion) throw await conflict(db, options.slug, options.baseVersion);
  const changes = diffBudgets(documentOf(service.budget), options.document);
  const saved = await db.$transaction(async (tx) => {
    const written = await updateBudgetIfVersion(tx, {
      serviceId: service.id,
      baseVersion: options.baseVersion,
      document: options.document,
      author: authorOf(options.actor),
      message: options.message,
      restoredFrom: options.restoredFrom,
      changes,
    });
    if (written) await recordAudit(tx, options.actor, options.audit(options.baseVersion + 1, changes));
    return written;
  });
  forgetCachedBudget(options.slug);
  if (!saved) throw await conflict(db, options.slug, options.baseVersion);
  rulesChanged(db);
  return getBudget({ db, slug: options.slug, viewer: options.actor });
}

/** What changed, for the audit trail and the timeline's marker: the first few changes, and how many more. */
function changesText(changes: BudgetChange[]): string {
  if (changes.length === 0) return " (no changes)";
  const shown = changes.slice(0, 3).map((c) => c.summary);
  return ` · ${shown.join("; ")}${changes.length > 3 ? `; ${changes.length - 3} more` : ""}`;
}

/** Saves a budget edited from `version`; 409 when someone saved in between. */
export const saveBudget = mutation(
  "budget.save",
  async ({ db, prom, actor, slug, input }: ServiceMutation & { prom?: CoalescingClient | null }) => {
    const { version, message, ...parsed } = parseInput(saveBudgetSchema, input, "The budget");
    // Sources saved without their kind get the one Prometheus has (and the unit its metadata states);
    // with Prometheus down they are stored without, and read as Prometheus has them later
    // (lib/prometheus/buckets.ts and the rule file resolve them when they read).
    const document = await withDocumentKinds(prom ?? null, parsed, { unit: true });
    return writeBudget(db, {
      slug,
      actor,
      baseVersion: version,
      document,
      message: message ?? "",
      restoredFrom: null,
      audit: (saved, changes) => ({
        action: "budget.save",
        service: slug,
        target: `budget v${saved}`,
        summary: `Saved budget version ${saved} (${document.targetMs} ms at p${document.quantile * 100})${message ? `: ${message}` : ""}${changesText(changes)}`,
      }),
    });
  },
);

const listRevisionsSchema = z.object({
  limit: z.coerce.number().int().min(1, "limit must be at least 1").max(200, "limit must be at most 200").default(50),
  before: z.coerce.number().int().positive("before must be a positive version").optional(),
});

export async function listRevisions({
  db,
  slug,
  query = {},
  viewer,
}: {
  db: Db;
  slug: string;
  query?: unknown;
  /** Who reads them: authors' emails for signed-in people, names otherwise (./authors.ts). */
  viewer?: Actor;
}): Promise<RevisionView[]> {
  const { limit, before } = parseInput(listRevisionsSchema, query, "The query");
  const service = await getServiceOrThrow({ db, slug });
  const rows = await listRevisionRows(db, service.id, { limit, beforeVersion: before });
  const label = await authorLabels(
    db,
    viewer,
    rows.map((r) => r.author),
  );
  return rows.map((row) => ({ ...toRevisionView(row), author: label(row.author) }));
}

const restoreSchema = z.object({
  version: z.number({ error: "version (the current version you are restoring over) is required" }).int().positive(),
});

/** Restores an older revision as a new one; the history keeps everything. */
export const restoreRevision = mutation(
  "budget.restore",
  async ({
    db,
    actor,
    slug,
    revision,
    input,
  }: {
    db: Db;
    actor: Actor;
    slug: string;
    revision: number;
    input: unknown;
  }): Promise<BudgetView> => {
    const { version } = parseInput(restoreSchema, input, "The restore request");
    const service = await getServiceOrThrow({ db, slug });
    const row = await findRevisionRow(db, service.id, revision);
    if (!row) throw new AppError("NOT_FOUND", `Budget “${slug}” has no revision ${revision}.`);
    return writeBudget(db, {
      slug,
      actor,
      baseVersion: version,
      document: documentOf(row.snapshot),
      message: `Restored revision ${revision}`,
      restoredFrom: revision,
      audit: (restored) => ({
        action: "budget.restore",
        service: slug,
        target: `budget v${restored}`,
        summary: `Restored budget revision ${revision} as version ${restored}`,
      }),
    });
  },
);
