import { expect, test } from "@playwright/test";

// A lead opens the service overview: every KPI of the LLM service with its trend.

test.describe("KPIs: the service overview", () => {
  test("shows every KPI from the demo's counters, each with a sparkline, and the window lives in the URL", async ({
    page,
  }) => {
    await page.goto("/services/chat-api");
    await page.getByRole("navigation", { name: "Service views" }).getByRole("link", { name: "KPIs" }).click();
    await expect(page).toHaveURL(/\/services\/chat-api\/kpis/);
    await page.getByLabel("Window", { exact: true }).selectOption("1m");
    await expect(page).toHaveURL(/window=1m/);
    const tiles = [
      "ttft",
      "itl",
      "e2e",
      "throughput",
      "tokens",
      "errors",
      "timeouts",
      "attainment",
      "cost",
      "cache",
      "speculative",
    ];
    await expect(async () => {
      await page.reload();
      for (const tile of tiles)
        await expect(page.getByTestId(`kpi-${tile}`), tile).not.toHaveText("no data", { timeout: 1000 });
    }).toPass({ timeout: 60_000, intervals: [2000] });
    await expect(page.getByTestId("kpi-ttft")).toHaveText(/^\d+ ms$/);
    await expect(page.getByTestId("kpi-attainment")).toHaveText(/%$/);
    await expect(page.getByTestId("kpi-cost")).toHaveText(/^\$0\.0\d+$/);
    await expect(page.getByRole("img", { name: "Trend of Error rate over the window" })).toBeVisible();
    await expect(page.getByText("vllm:e2e_request_latency_seconds")).toBeVisible();
  });
});
