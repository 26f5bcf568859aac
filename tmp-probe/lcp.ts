import { chromium } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "../test/chromium";
const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
for (const path of ["/no-such-page", "/services/chat-api/waterfall", "/services/chat-api/slos", `/services/chat-api/waterfall?range=24h&at=${Math.floor(Date.now()/1000)-120}`]) {
  for (let i = 0; i < 2; i++) {
  const page = await browser.newPage();
  await page.goto(`http://localhost:3000${path}`, { waitUntil: "load" });
  const r = await page.evaluate(() => new Promise<string>((resolve) => {
    new PerformanceObserver((list) => {
      const es = list.getEntries() as any[];
      resolve(es.map((e) => `${e.startTime.toFixed(0)}ms ${e.element?.tagName}.${String(e.element?.className).slice(0,60)} size=${e.size}`).join(" | "));
    }).observe({ type: "largest-contentful-paint", buffered: true });
    setTimeout(() => resolve("none"), 5000);
  }));
  const nav = await page.evaluate(() => { const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming; return `ttfb ${n.responseStart.toFixed(0)} domcontent ${n.domContentLoadedEventEnd.toFixed(0)} load ${n.loadEventEnd.toFixed(0)}`; });
  console.log(path.slice(0, 40), nav, r);
  await page.close();
  }
}
await browser.close();
