import { expect, test } from "@playwright/test";
import { setIncident } from "./incident";

// The bottleneck report during the RAG incident: on a page, as Markdown for the wiki, as JSON.

test.describe("report: the bottleneck analysis of a live incident", () => {
  test.describe.configure({ timeout: 180_000 });
  test.afterEach(() => setIncident("none"));

  test("names RAG retrieval the critical bottleneck during the RAG incident, and exports Markdown", async ({
    page,
    request,
  }) => {
    await setIncident("rag");
    await page.goto("/services/chat-api/report?window=1m");
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("primary-bottleneck")).toHaveText("RAG retrieval", { timeout: 1000 });
      await expect(page.getByTestId("bottleneck-RAG retrieval")).toContainText("critical", { timeout: 1000 });
    }).toPass({ timeout: 120_000, intervals: [3000] });
    for (const heading of [
      "Executive summary",
      "1. System pipeline",
      "2. Latency distribution",
      "3. Bottleneck analysis",
      "4. Recommendations",
      "5. Before / after (decided experiments)",
      "6. Alert rules in force",
    ])
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    await expect(page.getByRole("table", { name: "Recommendations" })).toContainText(
      "Smaller models for simple queries",
    );
    await expect(page.getByRole("table", { name: "Alert rules" })).toContainText("ComponentOverBudget");

    const href = await page.getByRole("link", { name: "Download Markdown" }).getAttribute("href");
    const markdown = await request.get(href!);
    expect(markdown.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(await markdown.text()).toContain("### 🔴 Critical: RAG retrieval");
    const json = await (await request.get("/api/services/chat-api/report?window=1m")).json();
    expect(json.bottlenecks[0]).toMatchObject({ component: "RAG retrieval", severity: "critical" });
  });
});
