import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { metrics } from "@/lib/observability/metrics";

// GET /metrics: the app's own health for a Prometheus to scrape. Off unless the operator sets
// LB_METRICS_TOKEN, and then only for requests that send it: route names, error counts and
// timings are nobody else's business.

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The metrics in Prometheus's text format, for a caller that sends the configured token. */
export async function getAppMetrics(headers: Headers): Promise<{ text: string; contentType: string }> {
  const expected = env().LB_METRICS_TOKEN;
  if (!expected) throw new AppError("NOT_FOUND", "Metrics are off: set LB_METRICS_TOKEN to serve them at /metrics.");
  const given = /^Bearer +(\S+) *$/i.exec(headers.get("authorization") ?? "")?.[1];
  if (!given || !timingSafeEqual(digest(given), digest(expected)))
    throw new AppError("UNAUTHORIZED", "Send the metrics token: Authorization: Bearer <LB_METRICS_TOKEN>.");
  const { registry } = metrics();
  return { text: await registry.metrics(), contentType: registry.contentType };
}
