import type { BudgetComponent, BudgetStage } from "@/lib/domain/budget";
import { GENERIC_E2E_METRIC, genericStageSource } from "@/lib/domain/presets";
import type { CreateServiceInput } from "@/lib/schemas/service";

// Budgets from the documents the product was first described from: the chat-api TTFT pipeline
// ("Latency Budget & Performance"), a 5 s RAG answer budget ("Performance Design") and a
// 3000 ms RAG chatbot budget ("Latency & Throughput Engineering").

export type SeedSlo = {
  name: string;
  indicator: string;
  source: { preset: "generic" | "vllm"; metric: string; matchers: Record<string, string> };
  thresholdMs: number;
  objective: number;
  windowDays: 28 | 30;
  thresholdMode: "snap" | "interpolate";
};

export type SeedService = { service: CreateServiceInput; stages: BudgetStage[]; slos?: SeedSlo[] };

type Ms = number | null;

function component(service: string, name: string, stageLabel: string, [p50, p95, p99]: [Ms, Ms, Ms]): BudgetComponent {
  return { name, budgetMs: { p50, p95, p99 }, source: genericStageSource(service, stageLabel) };
}

function sequential(service: string, rows: [string, string, [Ms, Ms, Ms]][]): BudgetStage[] {
  return rows.map(([name, label, ms]) => ({ name, components: [component(service, name, label, ms)] }));
}

// p50 and p99 stage totals sit on each stage's critical-path component.
export const chatApi: SeedService = {
  service: {
    slug: "chat-api",
    name: "Chat API",
    description: "Streaming chat with RAG; time to first token.",
    indicator: "TTFT",
    targetMs: 700,
    quantile: 0.95,
    endToEndSource: { preset: "generic", metric: GENERIC_E2E_METRIC, matchers: { service: "chat-api" } },
  },
  // "SLOBreach" in the seed: fewer than 99 % of first tokens under 700 ms pages on-call.
  slos: [
    {
      name: "TTFT under 700 ms",
      indicator: "TTFT",
      source: { preset: "generic", metric: GENERIC_E2E_METRIC, matchers: { service: "chat-api" } },
      thresholdMs: 700,
      objective: 0.99,
      windowDays: 28,
      thresholdMode: "snap",
    },
    {
      name: "RAG retrieval under 150 ms",
      indicator: "RAG retrieval",
      source: {
        preset: "generic",
        metric: "llm_stage_duration_seconds",
        matchers: { service: "chat-api", stage: "rag" },
      },
      thresholdMs: 150,
      objective: 0.95,
      windowDays: 28,
      thresholdMode: "snap",
    },
  ],
  stages: [
    { name: "Network", components: [component("chat-api", "Network", "network", [100, 150, 210])] },
    { name: "Gateway + auth", components: [component("chat-api", "Gateway + auth", "gateway", [30, 30, 40])] },
    {
      name: "Session ∥ rate limit",
      components: [
        component("chat-api", "Session load", "session_load", [20, 20, 30]),
        component("chat-api", "Rate-limit check", "rate_limit", [null, 5, null]),
      ],
    },
    { name: "Orchestrator", components: [component("chat-api", "Orchestrator", "orchestrator", [20, 20, 30])] },
    {
      name: "Safety ∥ RAG",
      components: [
        component("chat-api", "Safety check", "safety", [null, 60, null]),
        component("chat-api", "RAG retrieval", "rag", [60, 120, 150]),
      ],
    },
    { name: "Queueing", components: [component("chat-api", "Request queueing", "queue", [50, 150, 500])] },
    {
      name: "LLM first token",
      components: [component("chat-api", "LLM first decode", "llm_first_token", [120, 120, 180])],
    },
    { name: "Response", components: [component("chat-api", "Response", "response", [50, 50, 80])] },
  ],
};

export const ragAnswer: SeedService = {
  service: {
    slug: "rag-answer",
    name: "RAG answer",
    description: "Full answer within a 5 s SLA.",
    indicator: "End-to-end",
    targetMs: 5000,
    quantile: 0.95,
  },
  stages: sequential("rag-answer", [
    ["Query embedding", "embedding", [null, 100, null]],
    ["Vector search", "vector_search", [null, 50, null]],
    ["Reranking", "rerank", [null, 200, null]],
    ["LLM TTFT", "llm_ttft", [null, 1500, null]],
    ["LLM generation", "llm_generation", [null, 2500, null]],
    ["Post-processing", "post_processing", [null, 50, null]],
    ["Network overhead", "network", [null, 100, null]],
  ]),
};

export const ragChatbot: SeedService = {
  service: {
    slug: "rag-chatbot",
    name: "RAG chatbot",
    description: "Production RAG chatbot, 3000 ms end to end.",
    indicator: "End-to-end",
    targetMs: 3000,
    quantile: 0.95,
  },
  stages: sequential("rag-chatbot", [
    ["API gateway", "gateway", [null, 30, null]],
    ["Auth + rate limit", "auth", [null, 20, null]],
    ["Embedding query", "embedding", [null, 50, null]],
    ["Vector search", "vector_search", [null, 100, null]],
    ["Reranking", "rerank", [null, 100, null]],
    ["Prompt assembly", "prompt_assembly", [null, 50, null]],
    ["Prefill", "prefill", [null, 400, null]],
    ["Decode", "decode", [null, 2000, null]],
    ["Post-processing", "post_processing", [null, 50, null]],
    ["Response", "response", [null, 50, null]],
  ]),
};

export const SEED_SERVICES: SeedService[] = [chatApi, ragAnswer, ragChatbot];
