import { expect, test } from "@playwright/test";
import { E2E_USERS } from "../accounts";

// The demo opens with the document's prefix-caching experiment, so a PM sees a verdict at once.
test.describe("experiments: the seeded experiment, and recording a decision", () => {
  test("the demo's prefix-caching experiment shows its verdict on first open; the PM records the decision", async ({
    page,
  }) => {
    await page.goto("/experiments");
    await page
      .getByRole("link", { name: /Prefix caching/ })
      .first()
      .click();
    await expect(page.getByTestId("verdict")).toHaveText(
      "Treatment is 12 % faster at TTFT p95 and 17 % cheaper — ship.",
    );
    await expect(page.getByTestId("variant-control")).toContainText("659.8 ms");
    await expect(page.getByTestId("variant-treatment")).toContainText("$0.0250");
    await expect(page.getByTestId("guardrail")).toContainText("Quality guardrail passed");
    await expect(page.getByRole("list", { name: "Percentile markers" })).toContainText("control p50");
    await expect(page.getByTestId("experiment-status")).toHaveText("running");

    await page.getByRole("button", { name: "Stop collecting" }).click();
    await expect(page.getByTestId("experiment-status")).toHaveText("stopped");
    await expect(page.getByRole("button", { name: "Upload" })).toHaveCount(0);

    await page.getByRole("button", { name: "Record decision…" }).click();
    await expect(page.getByLabel("Decision", { exact: true })).toHaveValue("ship");
    await page.getByLabel("Why (optional)").fill("Faster and cheaper; quality held.");
    await page.getByRole("button", { name: "Save decision" }).click();
    await expect(page.getByTestId("experiment-status")).toHaveText("decided");
    await expect(page.getByTestId("experiment-decision")).toContainText(`Decision: ship by ${E2E_USERS.editor.email}`);
    await expect(page.getByTestId("experiment-decision")).toContainText("Faster and cheaper; quality held.");

    await page.reload();
    await expect(page.getByTestId("experiment-decision")).toContainText(`Decision: ship by ${E2E_USERS.editor.email}`);
    await page.getByRole("button", { name: "Reopen" }).click();
    await expect(page.getByTestId("experiment-status")).toHaveText("running");
  });
});
