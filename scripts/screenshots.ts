// npm run screenshots: the README's pictures, taken from a running demo (npm run demo) in
// Chromium. The demo's demo.json says where its app and traffic are (--data-dir: the demo's own);
// LB_APP_URL and LB_TRAFFIC_URL point elsewhere; incidents are flipped as each needs. Pages for
// editors sign in as the demo admin, LB_DEMO_ADMIN_EMAIL / LB_DEMO_ADMIN_PASSWORD as for the demo.
//   tsx scripts/screenshots.ts [--data-dir .data] [waterfall|kpis|capacity|whatif|report …]
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "../test/chromium";
import { demoAppUrl, demoTrafficUrl } from "./traffic/demo-urls";

const { values: options, positionals } = parseArgs({
  options: { "data-dir": { type: "string" } },
  allowPositionals: true,
});
const app = demoAppUrl(options["data-dir"]);
const traffic = demoTrafficUrl(options["data-dir"]);

async function incident(mode: "none" | "rag" | "queue") {
  await fetch(`${traffic}/incident?mode=${mode}`, { method: "POST" });
}

type Shot = {
  path: string;
  incident: "none" | "rag" | "queue";
  ready: (page: Page) => Promise<unknown>;
  /** Pages only editors see: sign in as the demo admin first. */
  signedIn?: boolean;
  /** Something to do before the page opens (signed in when `signedIn`), e.g. post an annotation. */
  prepare?: (page: Page) => Promise<unknown>;
  fullPage?: boolean;
};

const SPANS = "traces_span_metrics_duration_milliseconds";

const SHOTS: Record<string, Shot> = {
  timeline: {
    path: "/services/chat-api/waterfall?range=1h",
    incident: "rag",
    signedIn: true,
    fullPage: true,
    prepare: (page) =>
      page.request.post(`${app}/api/annotations`, {
        headers: { origin: app },
        data: {
          service: "chat-api",
          at: Math.floor(Date.now() / 1000) - 60,
          text: "Deployed rag-v2: reranker on",
          kind: "deploy",
          tags: ["deploy", "rag"],
        },
      }),
    ready: (page) =>
      page.getByTestId("over-summary").filter({ hasText: "RAG retrieval over budget" }).waitFor({ timeout: 120_000 }),
  },
  status: {
    path: "/",
    incident: "rag",
    ready: (page) =>
      page.getByRole("list", { name: "Over budget in Chat API" }).filter({ hasText: "RAG retrieval" }).waitFor(),
  },
  "slo-history": {
    path: "/services/chat-api/slos?history=1h",
    incident: "rag",
    ready: (page) => page.getByTestId("burn-down").first().waitFor(),
  },
  kpis: {
    path: "/services/chat-api/kpis?window=5m",
    incident: "none",
    ready: (page) => page.getByRole("img", { name: /Trend of Error rate/ }).waitFor(),
  },
  capacity: {
    path: "/services/chat-api/capacity?window=1m",
    incident: "queue",
    ready: (page) => page.getByRole("img", { name: /Queue wait p95 against utilisation; now at/ }).waitFor(),
  },
  whatif: {
    path: `/services/chat-api/whatif?window=1m&change=${encodeURIComponent("RAG retrieval:×0.7")}`,
    incident: "none",
    ready: (page) => page.getByRole("img", { name: /End-to-end distribution/ }).waitFor(),
  },
  wizard: {
    path: "/services/new/telemetry",
    incident: "none",
    signedIn: true,
    fullPage: true,
    ready: async (page) => {
      await page.getByLabel("Name", { exact: true }).fill("RAG API (traced)");
      await page.getByLabel("Search histograms").fill("span_metrics");
      await page.getByRole("button", { name: `Use ${SPANS} as end to end` }).click();
      await page.getByLabel("Only span_name").selectOption("POST /chat");
      await page.getByRole("button", { name: `Stages by span_name of ${SPANS}` }).click();
      for (const span of ["gateway", "orchestrator", "rag", "safety", "queue", "llm_first_token"])
        await page.getByLabel(span, { exact: true }).check();
      await page.getByRole("button", { name: "Add 6 as stages" }).click();
      await page
        .getByRole("list", { name: "Stages" })
        .getByRole("listitem")
        .nth(3)
        .getByLabel("parallel with the one above")
        .check();
      await page.getByRole("button", { name: "Measure and propose budgets" }).click();
      await page.getByTestId("proposal-note").waitFor();
    },
  },
  source: {
    path: "/services/chat-api/budget",
    incident: "none",
    signedIn: true,
    ready: async (page) => {
      await page.getByTestId("stage-4-component-1").getByRole("button", { name: "Source" }).click();
      await page
        .locator("#s4c1-preview")
        .filter({ hasText: /^Live now/ })
        .waitFor({ timeout: 30_000 });
    },
  },
  report: {
    path: "/services/chat-api/report?window=1m",
    incident: "rag",
    ready: (page) =>
      page.getByTestId("primary-bottleneck").filter({ hasText: "RAG retrieval" }).waitFor({ timeout: 120_000 }),
  },
};

const wanted = positionals.length ? positionals : Object.keys(SHOTS);
const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
try {
  for (const name of wanted) {
    const shot = SHOTS[name];
    if (!shot) throw new Error(`No screenshot called ${name}: ${Object.keys(SHOTS).join(", ")}`);
    await incident(shot.incident);
    // Let a minute of the incident reach the window.
    if (shot.incident !== "none") await new Promise((resolve) => setTimeout(resolve, 65_000));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
    if (shot.signedIn) {
      const response = await page.request.post(`${app}/api/auth/sign-in/email`, {
        data: {
          email: process.env.LB_DEMO_ADMIN_EMAIL || "admin@example.com",
          password: process.env.LB_DEMO_ADMIN_PASSWORD || "latency-budgets-demo",
        },
      });
      if (!response.ok()) throw new Error(`Signing in for the ${name} screenshot: ${response.status()}`);
    }
    await shot.prepare?.(page);
    await page.goto(`${app}${shot.path}`);
    await shot.ready(page);
    // Hydrated: charts draw in the browser, and forms take their defaults there.
    await page.waitForLoadState("networkidle");
    if (!["report", "wizard", "source"].includes(name))
      await page.locator(".recharts-line").first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1000);
    await page.screenshot({ path: `public/screenshot-${name}.png`, fullPage: shot.fullPage ?? name !== "report" });
    await page.close();
    console.log(`public/screenshot-${name}.png`);
  }
} finally {
  await incident("none");
  await browser.close();
}
