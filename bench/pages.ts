// Page speed: the largest contentful paint of the pages on-call opens, against the app's own 404
// page in the same run (Chromium, median of 7, interleaved), and the JavaScript each page loads
// to paint and respond (first load, as Next counts it; the total with the charts' code beside it),
// gzipped as a server would send it.
// Goals (issue: speed under sustained load): LCP ≤ 1.3 × the 404 page; JavaScript ≤ 250 KB gzip.
import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "../test/chromium";
import { median, type Row } from "./measure";
import type { BenchStack } from "./stack";

const RUNS = 7;
const LCP_RATIO = 1.3;
const JS_KB = 250;

async function load(
  browser: Browser,
  url: string,
): Promise<{ lcp: number; ttfb: number; jsBytes: number; totalJsBytes: number }> {
  const page = await browser.newPage();
  const scripts: Promise<number>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script")
      scripts.push(
        response
          .body()
          .then((body) => gzipSync(body).length)
          .catch(() => 0),
      );
  });
  await page.goto(url, { waitUntil: "load" });
  const lcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1]!.startTime);
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => resolve(Number.NaN), 5000);
      }),
  );
  // The server's part of it: the first byte of the page, from the navigation's start.
  const ttfb = await page.evaluate(
    () => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).responseStart,
  );
  // First-load JavaScript (Next's own measure): what the page loaded to paint and respond. The
  // charts' code, loaded after that, is counted in the total once the network is idle.
  const firstLoad = scripts.length;
  await page.waitForLoadState("networkidle");
  const sizes = await Promise.all(scripts);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  await page.close();
  return { lcp, ttfb, jsBytes: sum(sizes.slice(0, firstLoad)), totalJsBytes: sum(sizes) };
}

export async function runPagesBench(stack: BenchStack): Promise<Row[]> {
  const incident = Math.floor(Date.now() / 1000) - 120;
  const pages = {
    waterfall: "/services/chat-api/waterfall",
    SLO: "/services/chat-api/slos",
    // The incident link: the waterfall pinned to a moment, with the day's timeline around it.
    timeline: `/services/chat-api/waterfall?range=24h&at=${incident}`,
  };
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  const rows: Row[] = [];
  try {
    // Warm-up: every page once (Next compiles nothing in production, but the OS and caches warm).
    for (const path of [...Object.values(pages), "/no-such-page"]) await load(browser, `${stack.appUrl}${path}`);
    const lcps: Record<string, number[]> = { baseline: [] };
    const ttfbs: Record<string, number[]> = { baseline: [] };
    const js: Record<string, number> = {};
    const totalJs: Record<string, number> = {};
    for (let i = 0; i < RUNS; i++) {
      const baseline = await load(browser, `${stack.appUrl}/no-such-page`);
      lcps.baseline!.push(baseline.lcp);
      ttfbs.baseline!.push(baseline.ttfb);
      js.baseline = baseline.jsBytes;
      for (const [name, path] of Object.entries(pages)) {
        const { lcp, ttfb, jsBytes, totalJsBytes } = await load(browser, `${stack.appUrl}${path}`);
        (lcps[name] ??= []).push(lcp);
        (ttfbs[name] ??= []).push(ttfb);
        js[name] = jsBytes;
        totalJs[name] = totalJsBytes;
      }
    }
    const baseline = median(lcps.baseline!);
    for (const name of Object.keys(pages)) {
      const lcp = median(lcps[name]!);
      rows.push({
        name: `${name} page largest contentful paint (median of ${RUNS})`,
        // The profile: the first byte (the server's part) and the rest (the browser's).
        value: `${lcp.toFixed(0)} ms = ${(lcp / baseline).toFixed(2)} × the 404 page's ${baseline.toFixed(0)} ms (first byte at ${median(ttfbs[name]!).toFixed(0)} vs ${median(ttfbs.baseline!).toFixed(0)} ms)`,
        target: `≤ ${LCP_RATIO} ×`,
        met: lcp / baseline <= LCP_RATIO,
      });
      rows.push({
        name: `${name} page first-load JavaScript`,
        value: `${(js[name]! / 1024).toFixed(0)} KB gzip (${(totalJs[name]! / 1024).toFixed(0)} KB with the charts' code loaded after it; the 404 page's is ${(js.baseline ?? 0) / 1024 > 0 ? ((js.baseline ?? 0) / 1024).toFixed(0) : "?"} KB)`,
        target: `≤ ${JS_KB} KB gzip`,
        met: js[name]! / 1024 <= JS_KB,
      });
    }
  } finally {
    await browser.close();
  }
  return rows;
}
