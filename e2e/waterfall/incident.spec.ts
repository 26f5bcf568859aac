import { expect, test, type Page } from "@playwright/test";
import { CONTROL_PORT, TRAFFIC_PORT } from "../../playwright.config";

// On-call during an incident, against live demo traffic scraped by a real Prometheus.

async function setIncident(mode: "none" | "rag" | "queue") {
  const response = await fetch(`http://127.0.0.1:${TRAFFIC_PORT}/incident?mode=${mode}`, { method: "POST" });
  expect(response.ok).toBe(true);
}

async function prometheus(action: "stop" | "start" | "freeze" | "thaw") {
  const response = await fetch(`http://127.0.0.1:${CONTROL_PORT}/prometheus/${action}`, { method: "POST" });
  expect(response.ok).toBe(true);
}

/** Clicks Refresh until `check` passes: live data moves on its own clock. */
async function refreshUntil(page: Page, check: () => Promise<void>, timeout = 60_000) {
  await expect(async () => {
    await page.getByRole("button", { name: /^Refresh/ }).click();
    await page.waitForLoadState("networkidle");
    await check();
  }).toPass({ timeout, intervals: [1000, 2000, 3000] });
}

test.describe("waterfall: on-call opens the incident view", () => {
  test.describe.configure({ timeout: 180_000 });
  test.afterEach(async () => {
    await setIncident("none");
    await prometheus("thaw");
    await prometheus("start");
  });

  test("shows components, the critical path and the measured end-to-end percentile", async ({ page }) => {
    await page.goto("/services/chat-api/waterfall?window=1m");
    const table = page.getByRole("table", { name: "Components" });
    await expect(table.getByRole("row")).toHaveCount(11);
    await refreshUntil(page, async () => {
      await expect(page.getByTestId("status-RAG retrieval")).toHaveText("ok");
      await expect(page.getByTestId("measured-e2e")).not.toHaveText("—");
    });
    await expect(page.getByTestId("row-RAG retrieval")).toContainText("critical path");
    await expect(page.getByTestId("row-Session load")).toContainText("critical path");
    await expect(page.getByText(/Percentiles do not add/)).toBeVisible();
    await expect(page.getByRole("img", { name: /Waterfall of measured percentiles/ })).toBeVisible();
  });

  test("the RAG incident turns RAG retrieval over budget after a refresh", async ({ page }) => {
    await page.goto("/services/chat-api/waterfall?window=1m&refresh=off");
    await refreshUntil(page, () => expect(page.getByTestId("status-RAG retrieval")).toHaveText("ok"));
    await setIncident("rag");
    await refreshUntil(
      page,
      async () => {
        await expect(page.getByTestId("status-RAG retrieval")).toHaveText("over budget");
        await expect(page.getByTestId("worst-offender")).toContainText("RAG retrieval over by");
      },
      90_000,
    );
  });

  test("Prometheus going away marks the view stale, and it recovers by itself", async ({ page }) => {
    await page.goto("/services/chat-api/waterfall?window=1m&refresh=off");
    await refreshUntil(page, () => expect(page.getByTestId("measured-e2e")).not.toHaveText("—"));
    await prometheus("stop");
    await refreshUntil(page, () => expect(page.getByText(/Showing stale data: stale since/)).toBeVisible());
    await expect(page.getByTestId("status-RAG retrieval")).not.toHaveText("no data");
    await prometheus("start");
    await refreshUntil(page, () => expect(page.getByText(/Showing stale data/)).toBeHidden());
  });

  test("a hung Prometheus costs one timeout; then every view answers in under a second, saying so, until it answers again", async ({
    page,
    request,
  }) => {
    const timed = async <T>(run: () => Promise<T>) => {
      const start = Date.now();
      const value = await run();
      return { ms: Date.now() - start, value };
    };
    await page.goto("/services/chat-api/waterfall?window=1m&refresh=off");
    await refreshUntil(page, () => expect(page.getByTestId("measured-e2e")).not.toHaveText("—"));

    await prometheus("freeze"); // SIGSTOP: connections are accepted, nothing is answered
    await refreshUntil(page, () => expect(page.getByTestId("prometheus-state")).toContainText("Showing stale data"));
    // One timeout might be one slow query; the circuit opens once the breaker's trivial probe fails too.
    await expect
      .poll(async () => (await (await request.get("/api/health")).text()).includes("checking again"), {
        timeout: 10_000,
      })
      .toBe(true);

    for (const path of ["/api/services/chat-api/waterfall?window=1m", "/api/services/chat-api/slos", "/api/health"]) {
      const { ms, value } = await timed(() => request.get(path));
      expect(ms, path).toBeLessThan(1000);
      expect(await value.text(), path).toMatch(/checking again in the background/);
    }
    const health = await (await request.get("/api/health")).json();
    expect(health).toMatchObject({ ok: true, prometheus: "down" });
    for (const path of ["/services/chat-api/waterfall?window=1m", "/services/chat-api/slos"]) {
      const { ms, value } = await timed(() => request.get(path));
      expect(ms, path).toBeLessThan(1000);
      expect(value.status()).toBe(200);
    }
    const { ms } = await timed(() => page.goto("/services/chat-api/waterfall?window=1m&refresh=off"));
    expect(ms).toBeLessThan(1000);
    await expect(page.getByTestId("prometheus-state")).toContainText("Showing stale data");
    await expect(page.getByTestId("prometheus-state")).toContainText("did not answer in time");

    await prometheus("thaw");
    const thawedAt = Date.now();
    await refreshUntil(page, () => expect(page.getByTestId("prometheus-state")).toHaveCount(0), 30_000);
    expect(Date.now() - thawedAt).toBeLessThan(30_000);
  });

  test("the page loads without a failed request (the favicon included) and its axis reads round numbers", async ({
    page,
  }) => {
    const failed: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto("/services/chat-api/waterfall?window=1m");
    await expect(page.getByRole("img", { name: /Waterfall of measured percentiles/ })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(failed).toEqual([]);
    const tickLabels = page
      .getByRole("img", { name: /Waterfall of measured percentiles/ })
      .locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value");
    await expect(tickLabels.first()).toBeVisible();
    const ticks = await tickLabels.allTextContents();
    expect(ticks.length).toBeGreaterThan(2);
    const values = ticks.map((t) => Number(t.replace(/[^0-9.]/g, "")));
    const step = values[1]! - values[0]!;
    expect([50, 100, 200, 250]).toContain(step);
    for (const v of values) expect(v % step).toBe(0);
  });

  test("the view lives in the URL: a pasted link opens the same percentile, window and comparison", async ({
    page,
    context,
  }) => {
    await page.goto("/services/chat-api/waterfall");
    await page.getByRole("button", { name: "p99", exact: true }).click();
    await expect(page).toHaveURL(/quantile=0\.99/);
    await page.getByLabel("Custom window").fill("45m");
    await page.getByLabel("Custom window").press("Enter");
    await expect(page).toHaveURL(/window=45m/);
    await page.getByLabel("Window", { exact: true }).selectOption("15m");
    await expect(page).toHaveURL(/window=15m/);
    await page.getByLabel("Compare with").selectOption("1h");
    await expect(page).toHaveURL(/compare=1h/);
    await expect(page.getByRole("columnheader", { name: "Δ vs an hour ago" })).toBeVisible();

    const other = await context.newPage();
    await other.goto(page.url());
    await expect(other.getByRole("button", { name: "p99", exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect(other.getByLabel("Window", { exact: true })).toHaveValue("15m");
    await expect(other.getByText("Stacked p99 (sum of stages)")).toBeVisible();
  });
});

test.describe("SLOs: attainment for on-call and leads", () => {
  test("shows each SLO's gauge, threshold handling, burn rates and alert states", async ({ page }) => {
    await page.goto("/services/chat-api/slos");
    const ttft = page.getByRole("listitem").filter({ hasText: "TTFT under 700 ms" });
    await expect(ttft.getByTestId("threshold-note")).toHaveText("700 ms is a bucket bound: counted exactly.");
    await expect(ttft.getByRole("img", { name: /^Attainment \d|^No data/ })).toBeVisible();
    await expect(page.getByRole("table", { name: "Burn rates of TTFT under 700 ms" })).toContainText("5m");
    await expect(page.getByRole("list", { name: "Alerts of TTFT under 700 ms" })).toContainText("page 1h & 5m > 13.4×");

    await page.getByLabel("SLO name").fill("TTFT under 650 ms");
    await page.getByLabel("Threshold (ms)").fill("650");
    await page.getByRole("button", { name: "Show the histogram's bucket bounds" }).click();
    await expect(page.getByTestId("bucket-bounds")).toContainText("650 ms is a bound: counted exactly.");
    await page.getByLabel("Threshold (ms)").fill("680");
    await page.getByLabel("Objective (share of requests, e.g. 0.99)").fill("1");
    await page.getByRole("button", { name: "Add SLO" }).click();
    await expect(page.getByText("Objective must be below 1: an SLO of 100 % has no error budget")).toBeVisible();
    await page.getByLabel("Objective (share of requests, e.g. 0.99)").fill("0.98");
    await page.getByRole("button", { name: "Add SLO" }).click();
    const added = page.getByRole("listitem").filter({ hasText: "TTFT under 650 ms" });
    await expect(added.getByTestId("threshold-note")).toContainText(
      "680 ms is not a bucket bound (between the bounds 650 ms and 700 ms): counted at 650 ms",
    );
  });
});
