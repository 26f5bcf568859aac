import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { insertAnnotationsOnce } from "@/lib/db/annotations";
import { insertNotifications, listNotificationRows } from "@/lib/db/notifications";
import { listServiceRows } from "@/lib/db/services";
import { plural } from "@/lib/domain/format";
import { env } from "@/lib/env";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { lastReloadFailed, loadedRules } from "@/lib/prometheus/loaded-rules";
import { RULE_PREFIX } from "@/lib/prometheus/rules";
import { alertmanagerWebhookSchema } from "@/lib/schemas/alertmanager";
import { parseInput } from "@/lib/schemas/parse";
import { isAllowed, type Actor } from "./actor";
import { authorColumns } from "./annotation-events";
import { recordAudit } from "./audit";
import { mutation } from "./mutation";
import { ruleFileProblem, rulesLeftOut } from "./rules";
import { getServiceOrThrow } from "./services";

// Alert state comes from Prometheus, the source of truth (/api/v1/alerts); what Alertmanager
// delivered comes from its webhook and is kept as received, so on-call can see that the page
// really went out and when.

export const ALERT_NAMES = ["SLOErrorBudgetBurn", "ComponentOverBudget", "EndToEndOverTarget"] as const;

export type ActiveAlert = {
  name: string;
  state: "pending" | "firing";
  labels: Record<string, string>;
  annotations: Record<string, string>;
  activeAt: string;
  value: number;
};

export type AlertsView = {
  source: "prometheus";
  /**
   * Whether Prometheus has this app's current rules loaded (for the service, when one is asked
   * for): false while its last reload failed or the app could not write the rule file.
   */
  rulesLoaded: boolean;
  /** Why the rules are not current: a refused rule file or a failed reload; null otherwise. */
  rulesError: string | null;
  /**
   * Rule groups (of the service, when one is asked for) left out of the rule file because they
   * failed the checks, each with why; every other group was loaded.
   */
  rulesLeftOut: { service: string; group: string; reason: string }[];
  alerts: ActiveAlert[];
  error: string | null;
};

export type NotificationView = {
  id: string;
  receivedAt: string;
  service: string | null;
  status: "firing" | "resolved";
  alertname: string;
  severity: string;
  startsAt: string;
  endsAt: string | null;
  labels: Record<string, string>;
  summary: string;
  /** The waterfall or SLO page at the moment the alert started. */
  dashboardUrl: string | null;
};

type PrometheusAlerts = {
  alerts: {
    labels: Record<string, string>;
    annotations: Record<string, string>;
    state: string;
    activeAt: string;
    value: string;
  }[];
};

const alertsQuerySchema = z.object({
  service: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, "service is a service slug")
    .optional(),
});

/** What everyone but an admin is told when the rules are not current: the detail names files and hosts. */
export const RULES_NOT_CURRENT =
  "Prometheus is not evaluating the current alert rules: the last rule file was refused or its reload failed. An admin can see why here.";

/**
 * Pending and firing alerts, and whether the rules are current. `viewer` is who is looking: only
 * an admin gets rulesError's detail (paths, host:pid, promtool's output); anyone else, or no
 * viewer, gets RULES_NOT_CURRENT.
 */
export async function getAlerts(args: {
  db: Db;
  prom: CoalescingClient | null;
  query?: unknown;
  viewer?: Actor;
}): Promise<AlertsView> {
  const view = await readAlerts(args);
  if (view.rulesError === null || (args.viewer && isAllowed(args.viewer, "rules.detail"))) return view;
  return { ...view, rulesError: RULES_NOT_CURRENT };
}

async function readAlerts({
  db,
  prom,
  query = {},
}: {
  db: Db;
  prom: CoalescingClient | null;
  query?: unknown;
}): Promise<AlertsView> {
  const { service } = parseInput(alertsQuerySchema, query, "The query");
  if (service) await getServiceOrThrow({ db, slug: service });
  if (!prom)
    return {
      source: "prometheus",
      rulesLoaded: false,
      rulesError: null,
      rulesLeftOut: [],
      alerts: [],
      error: "Prometheus is not configured: set PROMETHEUS_URL.",
    };
  const [result, rules, reloadFailed, fileProblem, leftOut] = await Promise.all([
    prom.get<PrometheusAlerts>("/api/v1/alerts"),
    loadedRules(prom),
    lastReloadFailed(prom),
    ruleFileProblem(db),
    rulesLeftOut(db, service),
  ]);
  const prefix = service ? `${RULE_PREFIX}/${service}/` : `${RULE_PREFIX}/`;
  const rulesError =
    fileProblem ??
    (reloadFailed
      ? "Prometheus's last reload of its configuration failed, so it still evaluates the rules it loaded before. Its log says why."
      : null);
  const rulesLoaded = rulesError === null && [...rules.groups].some((name) => name.startsWith(prefix));
  if (result.status !== "success")
    return {
      source: "prometheus",
      rulesLoaded,
      rulesError,
      rulesLeftOut: leftOut,
      alerts: [],
      error: `Prometheus alerts could not be read: ${result.error}`,
    };
  const alerts = (result.data.alerts ?? [])
    .filter((a) => (ALERT_NAMES as readonly string[]).includes(a.labels.alertname ?? ""))
    .filter((a) => !service || a.labels.service === service)
    .map((a): ActiveAlert => ({
      name: a.labels.alertname!,
      state: a.state === "firing" ? "firing" : "pending",
      labels: a.labels,
      annotations: a.annotations,
      activeAt: a.activeAt,
      value: Number(a.value),
    }))
    .sort((a, b) => (a.state === b.state ? a.activeAt.localeCompare(b.activeAt) : a.state === "firing" ? -1 : 1));
  return { source: "prometheus", rulesLoaded, rulesError, rulesLeftOut: leftOut, alerts, error: null };
}

/** Alertmanager names each alert by a hash of its labels; senders that omit it get one the same way. */
function fingerprintOf(labels: Record<string, string>): string {
  const canonical = JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Alertmanager's "zero" end time means "still firing". */
function endTime(value: string | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return date.getUTCFullYear() <= 1 ? null : date;
}

/** Whether a bearer secret is Alertmanager's configured webhook token. */
export function isAlertmanagerToken(given: string): boolean {
  const expected = env().LB_ALERTMANAGER_TOKEN;
  return expected !== undefined && tokenMatches(given, expected);
}

/** Stores the alerts of one notification; only Alertmanager (with LB_ALERTMANAGER_TOKEN) may call it. */
export const receiveAlertmanagerWebhook = mutation(
  "alert.receive",
  async ({
    db,
    actor,
    input,
  }: {
    db: Db;
    actor: Actor;
    /** The body, or a function reading it once the caller is known. */
    input: unknown | (() => Promise<unknown>);
  }): Promise<{ received: number; stored: number }> => {
    const body = typeof input === "function" ? await (input as () => Promise<unknown>)() : input;
    const payload = parseInput(alertmanagerWebhookSchema, body, "The notification");
    const services = new Map((await listServiceRows(db)).map((row) => [row.slug, row.id]));
    const named = [...new Set(payload.alerts.map((alert) => alert.labels.service ?? ""))];
    const firing = payload.alerts.filter((alert) => alert.status === "firing").length;
    const stored = await db.$transaction(async (tx) => {
      const inserted = await insertNotifications(
        tx,
        payload.alerts.map((alert) => ({
          serviceId: services.get(alert.labels.service ?? "") ?? null,
          status: alert.status,
          alertname: (alert.labels.alertname ?? "").slice(0, 200),
          severity: (alert.labels.severity ?? "").slice(0, 40),
          fingerprint: alert.fingerprint || fingerprintOf(alert.labels),
          startsAt: new Date(alert.startsAt),
          endsAt: endTime(alert.endsAt),
          labels: alert.labels,
          annotations: alert.annotations,
          receiver: payload.receiver,
        })),
      );
      // Each delivered alert state of a known service is a marker on its timelines; a re-sent state is skipped.
      const states = payload.alerts.flatMap((alert) => {
        const serviceId = services.get(alert.labels.service ?? "");
        if (!serviceId) return [];
        const startsAt = new Date(alert.startsAt);
        const at = alert.status === "resolved" ? (endTime(alert.endsAt) ?? new Date()) : startsAt;
        const name = alert.labels.alertname ?? "alert";
        const summary = alert.annotations.summary ?? alert.labels.component ?? "";
        return [
          {
            serviceId,
            at,
            kind: "alert",
            text: `${name} ${alert.status}${summary ? `: ${summary}` : ""}`.slice(0, 500),
            tags: [alert.labels.severity ?? ""].filter(Boolean).map((tag) => tag.slice(0, 60)),
            url: null,
            ...authorColumns(actor),
            dedupeKey: `alert:${alert.fingerprint || fingerprintOf(alert.labels)}:${alert.status}:${startsAt.getTime()}`,
          },
        ];
      });
      if (states.length > 0) await insertAnnotationsOnce(tx, states);
      await recordAudit(tx, actor, {
        action: "alert.receive",
        service: named.length === 1 && services.has(named[0]!) ? named[0] : null,
        target: payload.receiver,
        summary: `Alertmanager delivered ${plural(payload.alerts.length, "alert")} (${firing} firing, ${inserted} new)`,
      });
      return inserted;
    });
    return { received: payload.alerts.length, stored };
  },
);

const notificationsQuerySchema = z.object({
  service: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, "service is a service slug")
    .optional(),
  limit: z.coerce.number().int().min(1, "limit must be at least 1").max(200, "limit must be at most 200").default(50),
  before: z.iso.datetime({ offset: true, error: "before is an RFC 3339 timestamp" }).optional(),
});

/** The dashboard link pinned at the alert's start: Prometheus cannot template its activeAt, Alertmanager knows it. */
function pinnedLink(annotations: Record<string, string>, startsAt: Date): string | null {
  const link = annotations.dashboard;
  if (!link || !/^https?:\/\//.test(link)) return null;
  try {
    const url = new URL(link);
    url.searchParams.set("at", String(Math.floor(startsAt.getTime() / 1000)));
    return url.toString();
  } catch {
    return null;
  }
}

export async function listNotifications({ db, query = {} }: { db: Db; query?: unknown }): Promise<NotificationView[]> {
  const { service, limit, before } = parseInput(notificationsQuerySchema, query, "The query");
  const serviceId = service ? (await getServiceOrThrow({ db, slug: service })).id : undefined;
  const rows = await listNotificationRows(db, { serviceId, limit, before: before ? new Date(before) : undefined });
  return rows.map((row) => ({
    id: row.id,
    receivedAt: row.receivedAt.toISOString(),
    service: row.service,
    status: row.status,
    alertname: row.alertname,
    severity: row.severity,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt?.toISOString() ?? null,
    labels: row.labels,
    summary: row.annotations.summary ?? row.alertname,
    dashboardUrl: pinnedLink(row.annotations, row.startsAt),
  }));
}
