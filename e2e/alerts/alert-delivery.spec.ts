import { expect, test } from "@playwright/test";
import { TRAFFIC_PORT } from "../../playwright.config";

// The demo's alert path end to end: the app writes its rules, its Prometheus evaluates them, a real
// Alertmanager posts to the app's webhook, and on-call sees the notification and the badges.

async function setIncident(mode: "none" | "rag") {
  const response = await fetch(`http://127.0.0.1:${TRAFFIC_PORT}/incident?mode=${mode}`, { method: "POST" });
  expect(response.ok).toBe(true);
}

test.describe("alerts: the RAG incident pages through Prometheus and Alertmanager", () => {
  test.describe.configure({ timeout: 300_000 });
  test.afterAll(async () => setIncident("none"));

  test("the generated rules are loaded and downloadable", async ({ page, request }) => {
    await page.goto("/services/chat-api/alerts");
    await expect(page.getByRole("heading", { name: "Alerts now" })).toBeVisible();
    await expect(page.getByTestId("rules-not-loaded")).toBeHidden();
    const href = await page.getByRole("link", { name: "Download rules" }).getAttribute("href");
    const rules = await request.get(href!);
    expect(rules.headers()["content-type"]).toContain("application/yaml");
    expect(rules.headers()["content-disposition"]).toContain("latency-budgets-chat-api.rules.yaml");
    const text = await rules.text();
    expect(text).toContain("alert: ComponentOverBudget");
    expect(text).toContain("alert: SLOErrorBudgetBurn");
    expect(text).toContain("record: latency_budgets:slo_error_ratio:rate5m");
  });

  test("RAG retrieval's ComponentOverBudget fires and its notification reaches the app", async ({ page }) => {
    await setIncident("rag");
    // The badge comes from Prometheus's own alert state: pending first, firing after `for`.
    await page.goto("/services/chat-api/waterfall?window=1m");
    await expect(page.getByTestId("alert-RAG retrieval")).toBeVisible({ timeout: 90_000 });

    await page.goto("/services/chat-api/alerts");
    const delivered = page.getByTestId("notification").filter({ hasText: "ComponentOverBudget" }).filter({
      hasText: "RAG retrieval",
    });
    await expect(async () => {
      await page.reload();
      await expect(delivered.first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 240_000, intervals: [5000] });
    await expect(delivered.first()).toContainText(/RAG retrieval p95 is [\d.]+ms, over its \d+ ms budget/);
    await expect(page.getByRole("list", { name: "Active alerts" })).toContainText("ComponentOverBudget");

    // The notification links to the waterfall at the moment the alert started.
    await delivered.first().getByRole("link", { name: "open at the alert's start" }).click();
    await expect(page).toHaveURL(/\/services\/chat-api\/waterfall\?.*at=\d+/);
    await expect(page.getByTestId("alert-RAG retrieval")).toContainText(/firing|pending/);
  });
});
