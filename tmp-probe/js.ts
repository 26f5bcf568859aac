import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "../test/chromium";
const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
for (const path of ["/no-such-page", "/services/chat-api/waterfall", "/services/chat-api/slos"]) {
  const page = await browser.newPage();
  const got: Promise<string>[] = [];
  page.on("response", (r) => { if (r.request().resourceType() === "script") got.push(r.body().then((b) => { const s = b.toString(); const tags = ["recharts","zod","react-hook-form","protobuf","yaml","tanstack","lezer"].filter((t) => s.includes(t)); return `${(gzipSync(b).length/1024).toFixed(0)}KB ${r.url().split("/").pop()} ${tags.join(",")}`; })); });
  await page.goto(`http://127.0.0.1:3000${path}`, { waitUntil: "networkidle" });
  const list = await Promise.all(got);
  console.log(path, list.reduce((a, l) => a + Number(l.split("KB")[0]), 0), "KB\n  " + list.join("\n  "));
  await page.close();
}
await browser.close();
