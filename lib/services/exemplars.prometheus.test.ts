import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { EMBEDDED_POOL_SIZE } from "@/lib/db/embedded";
import { createPrometheusClient } from "@/lib/prometheus/client";
import { coalesce } from "@/lib/prometheus/coalesce";
import { chatApi } from "@/prisma/seed-data";
import { startTrafficGenerator, type TrafficGenerator } from "@/scripts/traffic/generator";
import { startPrometheus, type PrometheusServer } from "@/scripts/stack/prometheus";
import { testUser } from "@/test/actors";
import { getExemplars, traceUrl } from "./exemplars";
import { createService } from "./services";

// The demo traffic attaches a trace ID to every observation (OpenMetrics exemplars). A Prometheus
// with exemplar storage keeps them; one without says nothing. The app must list what Prometheus
// stored, slowest first and in ms, and say plainly when there is nothing to list.

process.env.LB_TRACE_URL_TEMPLATE = "http://jaeger.test:16686/trace/{traceId}";

const db = createDb(inject("databaseUrl"), EMBEDDED_POOL_SIZE);
const actor = testUser("test");
const slug = `ex-${randomUUID().slice(0, 8)}`;
let traffic: TrafficGenerator;
let withStorage: PrometheusServer;
let without: PrometheusServer;

beforeAll(async () => {
  await createService({
    db,
    actor,
    input: {
      ...chatApi.service,
      slug,
      stages: chatApi.stages,
    },
  });
  traffic = await startTrafficGenerator({ requestsPerSecond: 40 });
  const target = traffic.url.replace("http://", "");
  [withStorage, without] = await Promise.all([
    startPrometheus({ targets: [target], scrapeInterval: "1s", flags: ["--enable-feature=exemplar-storage"] }),
    startPrometheus({ targets: [target], scrapeInterval: "1s" }),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 6000));
}, 60_000);

afterAll(async () => {
  await Promise.all([withStorage?.close(), without?.close(), traffic?.stop()]);
  await db.$disconnect();
});

describe("exemplars: from a slow component to its requests", () => {
  it("lists the trace IDs Prometheus stored, slowest first, in ms, linked to their traces", async () => {
    const prom = coalesce(createPrometheusClient(withStorage.url));
    const view = await getExemplars({
      db,
      prom,
      slug,
      query: { component: "RAG retrieval", window: "5m", limit: "200" },
    });
    expect(view.error).toBeNull();
    expect(view.storage).toBe("enabled");
    expect(view.note).toBeNull();
    expect(view.exemplars.length).toBeGreaterThan(5);
    // What Prometheus itself answers for the same selector and span.
    const raw = await createPrometheusClient(withStorage.url).get<
      { exemplars: { labels: Record<string, string>; value: string; timestamp: number }[] }[]
    >(
      `/api/v1/query_exemplars?${new URLSearchParams({
        query: 'llm_stage_duration_seconds_bucket{service="chat-api",stage="rag"}',
        start: String(view.start),
        end: String(view.end),
      })}`,
    );
    if (raw.status !== "success") throw new Error(raw.error);
    const theirs = new Map(
      raw.data.flatMap((s) => s.exemplars).map((e) => [e.labels.trace_id!, Number(e.value) * 1000] as const),
    );
    for (const exemplar of view.exemplars) {
      expect(theirs.get(exemplar.traceId)).toBeCloseTo(exemplar.valueMs, 9);
      expect(exemplar.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(exemplar.url).toBe(`http://jaeger.test:16686/trace/${exemplar.traceId}`);
      expect(exemplar.labels.stage).toBe("rag");
    }
    const values = view.exemplars.map((e) => e.valueMs);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(values[0]).toBe(Math.max(...theirs.values()));
  });

  it("says when the Prometheus stores no exemplars, and how to turn them on", async () => {
    const prom = coalesce(createPrometheusClient(without.url));
    const view = await getExemplars({ db, prom, slug, query: { component: "RAG retrieval" } });
    expect(view.exemplars).toEqual([]);
    expect(view.storage).toBe("disabled");
    expect(view.note).toContain("--enable-feature=exemplar-storage");
  });

  it("refuses a component the budget does not have", async () => {
    const prom = coalesce(createPrometheusClient(withStorage.url));
    await expect(getExemplars({ db, prom, slug, query: { component: "Nope" } })).rejects.toThrow(
      "No component “Nope” in this service's budget.",
    );
  });

  it("builds a trace link with the ID escaped", () => {
    expect(traceUrl("https://grafana.test/explore?trace={traceId}", "a/b c")).toBe(
      "https://grafana.test/explore?trace=a%2Fb%20c",
    );
    expect(traceUrl(undefined, "abc")).toBeNull();
  });
});
