import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { Counter, Gauge, Histogram, Registry, type OpenMetricsContentType } from "prom-client";
import { COMPONENTS, engineGauges, engineSlots, simulateRequest, type IncidentMode } from "./model";

// Demo traffic for chat-api, exported in the OpenMetrics text format (with exemplars) by prom-client.
// GET /metrics · GET /incident · POST /incident?mode=none|rag|queue

// Fine buckets where the budgets are (a 5 ms rate-limit check, a 20 ms orchestrator), so
// interpolation inside a bucket does not blur "ok" into "near budget"; 0.7 s is a bound so the
// 700 ms TTFT SLO is counted exactly.
export const LATENCY_BUCKETS = [
  0.002, 0.004, 0.006, 0.008, 0.01, 0.0125, 0.015, 0.0175, 0.02, 0.025, 0.03, 0.035, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09,
  0.1, 0.11, 0.12, 0.13, 0.14, 0.15, 0.175, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9,
  1, 1.25, 1.5, 2, 2.5, 3, 5, 10,
];
/** The OpenTelemetry Collector spanmetrics connector's default histogram buckets, in milliseconds. */
export const SPANMETRICS_BUCKETS_MS = [2, 4, 6, 8, 10, 50, 100, 200, 400, 800, 1000, 1400, 2000, 5000, 10_000, 15_000];
/** The span the traced pipeline's root is called: it lasts until the first token. */
export const ROOT_SPAN = "POST /chat";
const INCIDENTS: IncidentMode[] = ["none", "rag", "queue"];

export type TrafficGenerator = {
  url: string;
  port: number;
  setIncident: (mode: IncidentMode) => void;
  stop: () => Promise<void>;
};

const urlHost = (host: string | undefined) =>
  !host || host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;

export async function startTrafficGenerator(
  options: {
    port?: number;
    /** Where it listens: 127.0.0.1 unless given (a Prometheus on another machine needs 0.0.0.0 or an address). */
    host?: string;
    requestsPerSecond?: number;
    service?: string;
  } = {},
): Promise<TrafficGenerator> {
  const service = options.service ?? "chat-api";
  // OpenMetrics, so each bucket carries its latest observation's trace ID as an exemplar: the
  // link from a slow bucket to a request a tracing backend can show.
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  // Typed by `string` labels: prom-client's types would allow only the metric's own label names on an exemplar.
  const stage = new Histogram<string>({
    name: "llm_stage_duration_seconds",
    help: "Time spent in one pipeline stage.",
    labelNames: ["service", "stage", "variant"],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
    enableExemplars: true,
  });
  const ttft = new Histogram<string>({
    name: "llm_request_ttft_seconds",
    help: "Time to first token, end to end.",
    labelNames: ["service", "variant"],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
    enableExemplars: true,
  });
  const itl = new Histogram({
    name: "llm_inter_token_latency_seconds",
    help: "Time between output tokens.",
    labelNames: ["service", "variant"],
    buckets: [0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.05, 0.1],
    registers: [registry],
  });
  const tokens = new Counter({
    name: "llm_tokens_total",
    help: "Tokens processed.",
    labelNames: ["service", "variant", "kind"],
    registers: [registry],
  });
  const cost = new Counter({
    name: "llm_cost_dollars_total",
    help: "Inference cost in US dollars.",
    labelNames: ["service", "variant"],
    registers: [registry],
  });
  const requests = new Counter({
    name: "llm_requests_total",
    help: "Requests served.",
    labelNames: ["service", "variant"],
    registers: [registry],
  });

  const failures = new Counter({
    name: "llm_request_errors_total",
    help: "Requests that failed, by reason (error or timeout).",
    labelNames: ["service", "reason"],
    registers: [registry],
  });
  const responseCache = new Counter({
    name: "llm_response_cache_lookups_total",
    help: "Response-cache lookups, by result (hit or miss).",
    labelNames: ["service", "result"],
    registers: [registry],
  });
  const slots = new Gauge({
    name: "llm_engine_slots",
    help: "Concurrent request slots of the serving fleet.",
    labelNames: ["service"],
    registers: [registry],
  });
  // Known zeros, not missing series: a KPI with no failures yet reads 0 %, not "no data".
  for (const reason of ["error", "timeout"]) failures.inc({ service, reason }, 0);
  for (const result of ["hit", "miss"]) responseCache.inc({ service, result }, 0);
  // The serving engine's own metrics, under vLLM's names (labels model_name plus the service).
  const vllm = { service, model_name: "chat-model" };
  const vllmLabels = ["service", "model_name"];
  const engineHistogram = (name: string, help: string, buckets: number[]) =>
    new Histogram({ name, help, labelNames: vllmLabels, buckets, registers: [registry] });
  const e2e = engineHistogram(
    "vllm:e2e_request_latency_seconds",
    "End-to-end request latency.",
    [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10, 15, 20, 30, 60],
  );
  const inference = engineHistogram(
    "vllm:request_inference_time_seconds",
    "Time in prefill and decode.",
    [0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
  );
  const engineCounter = (name: string, help: string, extra: string[] = []) =>
    new Counter({ name, help, labelNames: [...vllmLabels, ...extra], registers: [registry] });
  const success = engineCounter("vllm:request_success_total", "Finished requests.", ["finished_reason"]);
  const promptTokens = engineCounter("vllm:prompt_tokens_total", "Prefill tokens processed.");
  const generationTokens = engineCounter("vllm:generation_tokens_total", "Generation tokens processed.");
  const prefixQueries = engineCounter("vllm:prefix_cache_queries_total", "Prefix-cache queries, in tokens.");
  const prefixHits = engineCounter("vllm:prefix_cache_hits_total", "Prefix-cache hits, in tokens.");
  const drafts = engineCounter("vllm:spec_decode_num_draft_tokens_total", "Speculative draft tokens.");
  const accepted = engineCounter("vllm:spec_decode_num_accepted_tokens_total", "Accepted draft tokens.");
  const engineGauge = (name: string, help: string) =>
    new Gauge({ name, help, labelNames: vllmLabels, registers: [registry] });
  const running = engineGauge("vllm:num_requests_running", "Requests holding an engine slot.");
  const waiting = engineGauge("vllm:num_requests_waiting", "Requests waiting for a slot.");

  // The same requests as traces through the OTel Collector's spanmetrics connector: one span per
  // pipeline component and a root span, in milliseconds, as the connector exports them by default.
  const spans = new Histogram({
    name: "traces_span_metrics_duration_milliseconds",
    help: "Duration of spans, from the spanmetrics connector.",
    labelNames: ["service_name", "span_name", "span_kind", "status_code"],
    buckets: SPANMETRICS_BUCKETS_MS,
    registers: [registry],
  });
  const spanCalls = new Counter({
    name: "traces_span_metrics_calls_total",
    help: "Calls of spans, from the spanmetrics connector.",
    labelNames: ["service_name", "span_name", "span_kind", "status_code"],
    registers: [registry],
  });
  const span = (span_name: string, ms: number, ok = true) => {
    const labels = {
      service_name: service,
      span_name,
      span_kind: span_name === ROOT_SPAN ? "SPAN_KIND_SERVER" : "SPAN_KIND_INTERNAL",
      status_code: ok ? "STATUS_CODE_UNSET" : "STATUS_CODE_ERROR",
    };
    spans.observe(labels, ms);
    spanCalls.inc(labels);
  };

  let incident: IncidentMode = "none";
  const tickMs = 250;
  const arrivalRps = options.requestsPerSecond ?? 20;
  const servers = engineSlots(arrivalRps);
  slots.set({ service }, servers);
  // The rate really generated over the last 10 s: on a busy machine ticks fire late and fewer
  // requests arrive than configured, and the engine's queue and gauges must follow what arrives,
  // or the capacity view's prediction (from measured λ) and the measured queue disagree.
  const started = performance.now();
  const recent: number[] = [];
  const effectiveRps = (now: number) => {
    while (recent.length && recent[0]! < now - 10_000) recent.shift();
    const span = Math.min(10_000, now - started);
    return span >= 2000 ? (recent.length * 1000) / span : arrivalRps;
  };
  // Requests follow the wall clock, not the tick count: a busy machine that fires ticks late still
  // generates the configured rate (in bursts), so the engine model's arrival rate stays true.
  let carry = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    carry = Math.min(carry + (arrivalRps * (now - last)) / 1000, arrivalRps * 10);
    last = now;
    const rate = effectiveRps(now);
    for (; carry >= 1; carry--) {
      recent.push(now);
      const r = simulateRequest(incident, Math.random, rate, servers);
      const exemplarLabels = { trace_id: randomBytes(16).toString("hex") };
      for (const c of COMPONENTS) {
        stage.observe({
          labels: { service, stage: c.label, variant: r.variant },
          value: r.componentMs.get(c.label)! / 1000,
          exemplarLabels,
        });
        span(c.label, r.componentMs.get(c.label)!);
      }
      span(ROOT_SPAN, r.ttftMs, r.outcome === "ok");
      ttft.observe({ labels: { service, variant: r.variant }, value: r.ttftMs / 1000, exemplarLabels });
      itl.observe({ service, variant: r.variant }, r.interTokenMs / 1000);
      tokens.inc({ service, variant: r.variant, kind: "prompt" }, r.promptTokens);
      tokens.inc({ service, variant: r.variant, kind: "completion" }, r.completionTokens);
      cost.inc({ service, variant: r.variant }, r.costDollars);
      requests.inc({ service, variant: r.variant });
      e2e.observe(vllm, r.endToEndMs / 1000);
      inference.observe(vllm, r.inferenceMs / 1000);
      if (r.outcome === "ok") success.inc({ ...vllm, finished_reason: r.finishedReason });
      else failures.inc({ service, reason: r.outcome });
      promptTokens.inc(vllm, r.promptTokens);
      generationTokens.inc(vllm, r.completionTokens);
      prefixQueries.inc(vllm, r.promptTokens);
      prefixHits.inc(vllm, r.prefixCacheHitTokens);
      drafts.inc(vllm, r.draftTokens);
      accepted.inc(vllm, r.acceptedTokens);
      responseCache.inc({ service, result: r.responseCacheHit ? "hit" : "miss" });
    }
    const gauges = engineGauges(incident, effectiveRps(now), Math.random, servers);
    running.set(vllm, gauges.running);
    waiting.set(vllm, gauges.waiting);
  }, tickMs);

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/metrics") {
      res.setHeader("content-type", registry.contentType);
      res.end(await registry.metrics());
      return;
    }
    if (url.pathname === "/incident") {
      if (req.method === "POST") {
        const mode = url.searchParams.get("mode") as IncidentMode;
        if (!INCIDENTS.includes(mode)) {
          res.writeHead(400).end(`mode must be one of ${INCIDENTS.join(", ")}\n`);
          return;
        }
        incident = mode;
      }
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ incident }));
      return;
    }
    res.writeHead(404).end("GET /metrics, GET|POST /incident?mode=none|rag|queue\n");
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, options.host || "127.0.0.1", resolve);
    });
  } catch (error) {
    clearInterval(timer);
    throw error;
  }
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    // Reached from this machine at 127.0.0.1 when it listens everywhere; else at the address it was given.
    url: `http://${urlHost(options.host)}:${port}`,
    port,
    setIncident: (mode) => (incident = mode),
    stop: async () => {
      clearInterval(timer);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
