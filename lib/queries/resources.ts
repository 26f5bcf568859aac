import { queryOptions } from "@tanstack/react-query";
import type { Analysis } from "@/lib/domain/stats/analysis";
import type { AlertsView, NotificationView } from "@/lib/services/alerts";
import type { BudgetView, RevisionView } from "@/lib/services/budgets";
import type { LiveCapacity } from "@/lib/services/capacity";
import type { KpiView } from "@/lib/services/kpis";
import type { ReportView } from "@/lib/services/report";
import type { WhatIfView } from "@/lib/services/whatif";
import type { ExperimentView, UploadView } from "@/lib/services/experiments/experiments";
import type { OptimizationView } from "@/lib/services/optimizations";
import type { ServiceSummary } from "@/lib/services/services";
import type { SloStatus } from "@/lib/services/slos";
import type { WaterfallView } from "@/lib/services/waterfall";
import type { AnnotationView } from "@/lib/services/annotations";
import type { ExemplarsView } from "@/lib/services/exemplars";
import type { SloHistoryView } from "@/lib/services/slo-history";
import type { StatusBoard } from "@/lib/services/status";
import type { TimelineView } from "@/lib/services/timeline";
import { apiFetch } from "./api";

// Every resource the browser reads: its URL, its query key and its fetcher in one place. Keys
// hold the normalised view state, so a re-render with the same view never refetches.

export type WaterfallParams = { quantile: number; window: string; compare?: string; at?: number };
export type ExperimentDetail = { experiment: ExperimentView; analysis: Analysis; uploads: UploadView[] };

const service = (slug: string) => `/api/services/${encodeURIComponent(slug)}`;

export function waterfallSearch(p: WaterfallParams): string {
  const search = new URLSearchParams({ quantile: String(p.quantile), window: p.window });
  if (p.compare) search.set("compare", p.compare);
  if (p.at !== undefined) search.set("at", String(p.at));
  return search.toString();
}

export type TimelineParams = { quantile: number; range: string; window: string; end?: number };

export function timelineSearch(p: TimelineParams): string {
  const search = new URLSearchParams({ quantile: String(p.quantile), range: p.range, window: p.window });
  if (p.end !== undefined) search.set("end", String(p.end));
  return search.toString();
}

export type ExemplarParams = { component: string; window: string; end?: number; limit?: number };

export type WhatIfParams = { quantile: number; window: string; change: string[] };

export function whatIfSearch(p: WhatIfParams): string {
  const search = new URLSearchParams({ quantile: String(p.quantile), window: p.window });
  for (const change of p.change) search.append("change", change);
  return search.toString();
}

export const urls = {
  kpis: (slug: string, window: string) => `${service(slug)}/kpis?window=${encodeURIComponent(window)}`,
  capacity: (slug: string, window: string, servers?: number) =>
    `${service(slug)}/capacity?window=${encodeURIComponent(window)}${servers ? `&servers=${servers}` : ""}`,
  capacityPlan: () => "/api/capacity/plan",
  examples: () => "/api/examples",
  capacityQueue: () => "/api/capacity/queue",
  report: (slug: string, window: string, format: "json" | "md" = "json") =>
    `${service(slug)}/report?window=${encodeURIComponent(window)}&format=${format}`,
  whatIf: (slug: string, p: WhatIfParams) => `${service(slug)}/whatif?${whatIfSearch(p)}`,
  services: () => "/api/services",
  budget: (slug: string) => `${service(slug)}/budget`,
  revisions: (slug: string) => `${service(slug)}/budget/revisions`,
  restore: (slug: string, version: number) => `${service(slug)}/budget/revisions/${version}/restore`,
  waterfall: (slug: string, p: WaterfallParams) => `${service(slug)}/waterfall?${waterfallSearch(p)}`,
  slos: (slug: string, at?: number) => `${service(slug)}/slos${at !== undefined ? `?at=${at}` : ""}`,
  timeline: (slug: string, p: TimelineParams) => `${service(slug)}/timeline?${timelineSearch(p)}`,
  exemplars: (slug: string, p: ExemplarParams) => {
    const search = new URLSearchParams({ component: p.component, window: p.window });
    if (p.end !== undefined) search.set("end", String(p.end));
    if (p.limit !== undefined) search.set("limit", String(p.limit));
    return `${service(slug)}/exemplars?${search.toString()}`;
  },
  serviceAnnotations: (slug: string, range: string, end?: number) =>
    `${service(slug)}/annotations?range=${encodeURIComponent(range)}${end !== undefined ? `&end=${end}` : ""}`,
  annotations: () => "/api/annotations",
  annotation: (id: string) => `/api/annotations/${encodeURIComponent(id)}`,
  sloHistory: (slug: string, id: string, range?: string) =>
    `${service(slug)}/slos/${encodeURIComponent(id)}/history${range ? `?range=${encodeURIComponent(range)}` : ""}`,
  status: () => "/api/status",
  slo: (slug: string, id: string) => `${service(slug)}/slos/${encodeURIComponent(id)}`,
  bucketBounds: () => "/api/prometheus/buckets",
  discovery: (match?: string) => `/api/discovery/histograms${match ? `?match=${encodeURIComponent(match)}` : ""}`,
  proposals: () => "/api/proposals",
  proposal: (slug: string, window = "1h") => `${service(slug)}/budget/proposal?window=${encodeURIComponent(window)}`,
  experiments: () => "/api/experiments",
  analysis: (id: string) => `/api/experiments/${encodeURIComponent(id)}/analysis`,
  experimentStatus: (id: string) => `/api/experiments/${encodeURIComponent(id)}/status`,
  samples: (id: string, onError: "reject" | "skip") =>
    `/api/experiments/${encodeURIComponent(id)}/samples?onError=${onError}`,
  importPrometheus: (id: string) => `/api/experiments/${encodeURIComponent(id)}/import-prometheus`,
  optimizations: () => "/api/optimizations",
  alerts: (slug: string) => `/api/alerts?service=${encodeURIComponent(slug)}`,
  notifications: (slug: string) => `/api/alerts/notifications?service=${encodeURIComponent(slug)}&limit=20`,
  rules: (slug: string, format: "prometheus" | "prometheusrule" = "prometheus") =>
    `${service(slug)}/rules.yaml?download=1${format === "prometheusrule" ? "&format=prometheusrule" : ""}`,
  openslo: (slug: string) => `${service(slug)}/openslo.yaml?download=1`,
  openSloImport: () => "/api/openslo",
  me: () => "/api/me",
  setup: () => "/api/setup",
  signIn: () => "/api/auth/sign-in/email",
  signInSso: () => "/api/auth/sign-in/social",
  users: () => "/api/users",
  user: (id: string) => `/api/users/${encodeURIComponent(id)}`,
  userPassword: (id: string) => `/api/users/${encodeURIComponent(id)}/password`,
  userSessions: (id: string) => `/api/users/${encodeURIComponent(id)}/sessions`,
  myPassword: () => "/api/me/password",
  tokens: (all = false) => `/api/tokens${all ? "?all=1" : ""}`,
  token: (id: string) => `/api/tokens/${encodeURIComponent(id)}`,
  audit: (query: { service?: string; actor?: string; before?: string }) => {
    const search = new URLSearchParams(
      Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
    return `/api/audit${search.size ? `?${search}` : ""}`;
  },
};

export const queries = {
  kpis: (slug: string, window: string) =>
    queryOptions({ queryKey: ["kpis", slug, window], queryFn: () => apiFetch<KpiView>(urls.kpis(slug, window)) }),
  capacity: (slug: string, window: string, servers?: number) =>
    queryOptions({
      queryKey: ["capacity", slug, window, servers ?? "metric"],
      queryFn: () => apiFetch<LiveCapacity>(urls.capacity(slug, window, servers)),
    }),
  report: (slug: string, window: string) =>
    queryOptions({
      queryKey: ["report", slug, window],
      queryFn: () => apiFetch<ReportView>(urls.report(slug, window)),
    }),
  whatIf: (slug: string, p: WhatIfParams) =>
    queryOptions({
      queryKey: ["whatif", slug, p.quantile, p.window, ...p.change],
      queryFn: () => apiFetch<WhatIfView>(urls.whatIf(slug, p)),
    }),
  services: () => queryOptions({ queryKey: ["services"], queryFn: () => apiFetch<ServiceSummary[]>(urls.services()) }),
  budget: (slug: string) =>
    queryOptions({ queryKey: ["budget", slug], queryFn: () => apiFetch<BudgetView>(urls.budget(slug)) }),
  revisions: (slug: string) =>
    queryOptions({ queryKey: ["revisions", slug], queryFn: () => apiFetch<RevisionView[]>(urls.revisions(slug)) }),
  waterfall: (slug: string, p: WaterfallParams) =>
    queryOptions({
      queryKey: ["waterfall", slug, p.quantile, p.window, p.compare ?? "", p.at ?? "live"],
      queryFn: () => apiFetch<WaterfallView>(urls.waterfall(slug, p)),
    }),
  slos: (slug: string, at?: number) =>
    queryOptions({ queryKey: ["slos", slug, at ?? "live"], queryFn: () => apiFetch<SloStatus[]>(urls.slos(slug, at)) }),
  timeline: (slug: string, p: TimelineParams) =>
    queryOptions({
      queryKey: ["timeline", slug, p.quantile, p.range, p.window, p.end ?? "live"],
      queryFn: () => apiFetch<TimelineView>(urls.timeline(slug, p)),
    }),
  exemplars: (slug: string, p: ExemplarParams) =>
    queryOptions({
      queryKey: ["exemplars", slug, p.component, p.window, p.end ?? "live", p.limit ?? 20],
      queryFn: () => apiFetch<ExemplarsView>(urls.exemplars(slug, p)),
    }),
  serviceAnnotations: (slug: string, range: string, end?: number) =>
    queryOptions({
      queryKey: ["annotations", slug, range, end ?? "live"],
      queryFn: () => apiFetch<AnnotationView[]>(urls.serviceAnnotations(slug, range, end)),
    }),
  sloHistory: (slug: string, id: string, range?: string) =>
    queryOptions({
      queryKey: ["slo-history", slug, id, range ?? "window"],
      queryFn: () => apiFetch<SloHistoryView>(urls.sloHistory(slug, id, range)),
    }),
  status: () => queryOptions({ queryKey: ["status"], queryFn: () => apiFetch<StatusBoard>(urls.status()) }),
  experiments: () =>
    queryOptions({ queryKey: ["experiments"], queryFn: () => apiFetch<ExperimentView[]>(urls.experiments()) }),
  experiment: (id: string) =>
    queryOptions({ queryKey: ["experiment", id], queryFn: () => apiFetch<ExperimentDetail>(urls.analysis(id)) }),
  optimizations: () =>
    queryOptions({ queryKey: ["optimizations"], queryFn: () => apiFetch<OptimizationView[]>(urls.optimizations()) }),
  alerts: (slug: string) =>
    queryOptions({ queryKey: ["alerts", slug], queryFn: () => apiFetch<AlertsView>(urls.alerts(slug)) }),
  notifications: (slug: string) =>
    queryOptions({
      queryKey: ["notifications", slug],
      queryFn: () => apiFetch<NotificationView[]>(urls.notifications(slug)),
    }),
};
