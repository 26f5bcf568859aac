"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, Card, EmptyState } from "@/components/ui/primitives";
import { queries, urls } from "@/lib/queries/resources";
import type { AlertsView, NotificationView } from "@/lib/services/alerts";
import { ALERTS_REFRESH_MS } from "./alert-badges";

const time = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium" });

function what(labels: Record<string, string>): string {
  if (labels.component) return `${labels.component} (${labels.stage})`;
  if (labels.slo) return `SLO “${labels.slo}”, ${labels.long_window} & ${labels.short_window}`;
  return "end to end";
}

/** A service's alerts now (from Prometheus) and the notifications Alertmanager delivered. */
export function AlertsPanel({
  slug,
  initialAlerts,
  initialNotifications,
}: {
  slug: string;
  initialAlerts: AlertsView;
  initialNotifications: NotificationView[];
}) {
  const alerts = useQuery({ ...queries.alerts(slug), initialData: initialAlerts, refetchInterval: ALERTS_REFRESH_MS });
  const notifications = useQuery({
    ...queries.notifications(slug),
    initialData: initialNotifications,
    refetchInterval: ALERTS_REFRESH_MS,
  });
  const view = alerts.data;
  return (
    <div className="space-y-4">
      <Card>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-lg font-semibold">Alerts now</h2>
          <p className="text-sm">
            <a className="text-sky-700 underline dark:text-sky-400" href={urls.rules(slug)} download>
              Download rules
            </a>{" "}
            ·{" "}
            <a className="text-sky-700 underline dark:text-sky-400" href={urls.rules(slug, "prometheusrule")} download>
              as a PrometheusRule
            </a>
          </p>
        </div>
        {view.error && <p className="text-sm text-red-600 dark:text-red-400">{view.error}</p>}
        {!view.error && view.rulesError && (
          <p className="text-sm text-red-600 dark:text-red-400" role="alert" data-testid="rules-error">
            Alerts may be out of date: {view.rulesError}
          </p>
        )}
        {!view.error && view.rulesLeftOut.length > 0 && (
          <div className="text-sm text-red-600 dark:text-red-400" role="alert" data-testid="rules-left-out">
            <p>Some of this service&apos;s rules were left out of the rule file, so they cannot fire:</p>
            <ul className="list-disc pl-5">
              {view.rulesLeftOut.map((g) => (
                <li key={g.group}>
                  <code>{g.group}</code>: {g.reason}
                </li>
              ))}
            </ul>
            <p>Every other service&apos;s rules were loaded. Fix the source or the SLO and save it again.</p>
          </div>
        )}
        {!view.error && !view.rulesError && !view.rulesLoaded && view.rulesLeftOut.length === 0 && (
          <p className="text-sm text-amber-700 dark:text-amber-300" data-testid="rules-not-loaded">
            Prometheus has not loaded this service&apos;s rules, so nothing here can fire. Download them and add the
            file to <code>rule_files</code> (docs/RUNNING.md covers kube-prometheus and Mimir).
          </p>
        )}
        {view.alerts.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" data-testid="no-alerts">
            Nothing pending or firing{view.rulesLoaded ? " — the rules are loaded and quiet." : "."}
          </p>
        ) : (
          <ul className="mt-2 space-y-2" aria-label="Active alerts">
            {view.alerts.map((a) => (
              <li key={`${a.name}-${JSON.stringify(a.labels)}`} className="text-sm">
                <Badge tone={a.state === "firing" ? "bad" : "warn"}>{a.state}</Badge>{" "}
                <span className="font-medium">{a.name}</span> · {what(a.labels)} · since {time(a.activeAt)}
                {a.annotations.summary && <p className="text-slate-600 dark:text-slate-400">{a.annotations.summary}</p>}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">Notifications from Alertmanager</h2>
        {notifications.data.length === 0 ? (
          <EmptyState title="No notifications yet">
            When Alertmanager sends this service&apos;s alerts to <code>/api/alertmanager/webhook</code>, they are
            listed here, newest first.
          </EmptyState>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100 dark:divide-slate-800" aria-label="Notifications">
            {notifications.data.map((n) => (
              <li key={n.id} className="py-2 text-sm" data-testid="notification">
                <Badge tone={n.status === "firing" ? "bad" : "good"}>{n.status}</Badge>{" "}
                <span className="font-medium">{n.alertname}</span>
                {n.severity && <span className="text-slate-500"> · {n.severity}</span>} · {what(n.labels)}
                <p className="text-slate-600 dark:text-slate-400">{n.summary}</p>
                <p className="text-xs text-slate-500">
                  started {time(n.startsAt)}
                  {n.endsAt && `, resolved ${time(n.endsAt)}`} · received {time(n.receivedAt)}
                  {n.dashboardUrl && (
                    <>
                      {" · "}
                      <Link className="text-sky-700 underline dark:text-sky-400" href={localPath(n.dashboardUrl)}>
                        open at the alert&apos;s start
                      </Link>
                    </>
                  )}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

/** Links are absolute in annotations; inside the app they open on this host. */
function localPath(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}
