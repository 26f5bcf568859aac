// npm run screenshots: the README's pictures, taken from a running demo (npm run demo) in
// Chromium. LB_APP_URL and LB_TRAFFIC_URL point elsewhere; incidents are flipped as each needs.
//   tsx scripts/screenshots.ts [waterfall|kpis|capacity|whatif|report …]
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "../test/chromium";
import { demoTrafficUrl } from "./traffic/demo-urls";

const app = process.env.LB_APP_URL ?? "http://127.0.0.1:3000";
const traffic = demoTrafficUrl();

async function incident(mode: "none" | "rag" | "queue") {
  await fetch(`${traffic}/incident?mode=${mode}`, { method: "POST" });
}

type Shot = { path: string; incident: "none" | "rag" | "queue"; ready: (page: Page) => Promise<unknown> };

const SHOTS: Record<string, Shot> = {
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
  report: {
    path: "/services/chat-api/report?window=1m",
    incident: "rag",
    ready: (page) =>
      page.getByTestId("primary-bottleneck").filter({ hasText: "RAG retrieval" }).waitFor({ timeout: 120_000 }),
  },
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SHOTS);
const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
try {
  for (const name of wanted) {
    const shot = SHOTS[name];
    if (!shot) throw new Error(`No screenshot called ${name}: ${Object.keys(SHOTS).join(", ")}`);
    await incident(shot.incident);
    // Let a minute of the incident reach the window.
    if (shot.incident !== "none") await new Promise((resolve) => setTimeout(resolve, 65_000));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
    await page.goto(`${app}${shot.path}`);
    await shot.ready(page);
    // Hydrated: charts draw in the browser, and forms take their defaults there.
    await page.waitForLoadState("networkidle");
    if (name !== "report") await page.locator(".recharts-line").first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1000);
    await page.screenshot({ path: `public/screenshot-${name}.png`, fullPage: name !== "report" });
    await page.close();
    console.log(`public/screenshot-${name}.png`);
  }
} finally {
  await incident("none");
  await browser.close();
}
