import { expect, test } from "@playwright/test";

// What-if: predict the end-to-end percentile from the component histograms, then change one.

const ms = async (text: Promise<string | null>) => Number((await text)?.replace(/[^0-9.]/g, ""));

test.describe("what-if: predicted against measured, and a change", () => {
  test("predicts close to the measured p95, then shows what RAG retrieval at ×0.7 would give", async ({
    page,
    context,
  }) => {
    await page.goto("/services/chat-api/whatif?window=1m");
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("measured")).not.toHaveText("no data", { timeout: 1000 });
    }).toPass({ timeout: 60_000, intervals: [2000] });
    const predicted = await ms(page.getByTestId("predicted").textContent());
    const measured = await ms(page.getByTestId("measured").textContent());
    expect(Math.abs(predicted - measured) / measured).toBeLessThan(0.1);
    await expect(page.getByText(/Components are independent/)).toBeVisible();
    await expect(page.getByRole("img", { name: /End-to-end distribution/ })).toBeVisible();

    await page.getByLabel("Component").selectOption("RAG retrieval");
    await page.getByRole("textbox", { name: "Change" }).fill("×0.7");
    await page.getByRole("button", { name: "Add change" }).click();
    await expect(page).toHaveURL(/change=RAG\+retrieval%3A%C3%970\.7/);
    await expect(page.getByTestId("adjusted")).toContainText("RAG retrieval ×0.7: predicted p95 moves");
    await expect(page.getByText("Predicted p95 after the changes")).toBeVisible();

    // The link carries the change: a colleague sees the same question.
    const other = await context.newPage();
    await other.goto(page.url());
    await expect(other.getByRole("list", { name: "Changes" })).toContainText("RAG retrieval ×0.7");

    await page.getByRole("button", { name: "Remove RAG retrieval:×0.7" }).click();
    await expect(page.getByTestId("adjusted")).toHaveCount(0);
    await page.getByRole("textbox", { name: "Change" }).fill("50");
    await page.getByRole("button", { name: "Add change" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "with a sign" })).toContainText(
      "“50” in “RAG retrieval:50”",
    );
  });
});
