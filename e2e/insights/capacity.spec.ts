import { expect, test } from "@playwright/test";
import { setIncident } from "./incident";

// Capacity: the live operating point on the wait-versus-utilisation curve, and the calculators.

const percent = async (text: Promise<string | null>) => Number((await text)?.replace(/[^0-9.]/g, ""));

test.describe("capacity: where the service runs on the queueing curve", () => {
  test.describe.configure({ timeout: 180_000 });
  test.afterEach(() => setIncident("none"));

  test("the queue incident moves the live operating point up the curve", async ({ page }) => {
    await page.goto("/services/chat-api/capacity?window=1m");
    await expect(page.getByRole("img", { name: /Queue wait p95 against utilisation; now at/ })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByTestId("queue-verdict")).toContainText("Queueing alone eats the budget above");
    // 60 % busy in the demo, once a whole window of traffic has been scraped.
    let before = 0;
    await expect(async () => {
      await page.reload();
      before = await percent(page.getByTestId("utilization").textContent());
      expect(before).toBeGreaterThan(45);
    }).toPass({ timeout: 90_000, intervals: [3000] });
    expect(before).toBeLessThan(75);
    await setIncident("queue");
    await expect(async () => {
      await page.reload();
      expect(await percent(page.getByTestId("utilization").textContent())).toBeGreaterThan(before + 12);
    }).toPass({ timeout: 120_000, intervals: [3000] });
    await expect(page.getByTestId("queue-verdict")).toContainText(/past it now|of headroom/);
  });

  test("a visitor plans GPUs with Little's law and sizes a queue with Erlang C", async ({ browser }) => {
    // Calculations store nothing: anyone who may view may run them, signed in or not.
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto("/services/chat-api/capacity");
    await page.getByRole("button", { name: "Plan" }).click();
    const plan = page.getByTestId("plan-result");
    await expect(plan).toContainText("Concurrent slots needed (λ × W)100.0");
    await expect(plan).toContainText("GPUs16");
    await expect(plan).toContainText("Throughput per GPU3.20 req/s");
    await expect(plan).toContainText("Total capacity51.2 req/s");
    await expect(plan).toContainText("Headroom held back20 %");
    await page.getByLabel("Target utilisation").fill("1.5");
    await page.getByRole("button", { name: "Plan" }).click();
    await expect(page.getByText("Target utilisation is a share: at most 1 (every slot busy)")).toBeVisible();

    await page.getByRole("button", { name: "Compute" }).click();
    await expect(page.getByTestId("queue-result")).toContainText("Probability of waiting33.33 %");
    await expect(page.getByTestId("queue-result")).toContainText("Mean queue length Lq0.333");
    await context.close();
  });
});
