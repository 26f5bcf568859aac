import { expect, test } from "@playwright/test";
import { createService } from "../builders";

test.describe("SLOs: a lead adjusts and retires SLOs", () => {
  test("edits an SLO's objective and threshold, then deletes it", async ({ page, request }) => {
    const slug = await createService(request);
    const created = await request.post(`/api/services/${slug}/slos`, {
      data: {
        name: "TTFT under 700 ms",
        source: { preset: "generic", metric: "llm_request_ttft_seconds", matchers: { service: "chat-api" } },
        thresholdMs: 700,
        objective: 0.99,
      },
    });
    expect(created.status()).toBe(201);

    await page.goto(`/services/${slug}/slos`);
    const card = page.getByRole("listitem").filter({ hasText: "TTFT under 700 ms" });
    await expect(card).toContainText("99.00 % of requests ≤ 700 ms over 28d");
    await card.getByRole("button", { name: "Edit TTFT under 700 ms" }).click();
    const form = page.getByRole("form", { name: "Edit SLO TTFT under 700 ms" });
    await form.getByLabel("Objective (share of requests, e.g. 0.99)").fill("1");
    await form.getByRole("button", { name: "Save SLO" }).click();
    await expect(form.getByText("Objective must be below 1: an SLO of 100 % has no error budget")).toBeVisible();
    await form.getByLabel("Objective (share of requests, e.g. 0.99)").fill("0.995");
    await form.getByLabel("Threshold (ms)").fill("650");
    await form.getByRole("button", { name: "Save SLO" }).click();
    await expect(card).toContainText("99.50 % of requests ≤ 650 ms over 28d");
    await expect(page.getByRole("form", { name: "Edit SLO TTFT under 700 ms" })).toHaveCount(0);

    await card.getByRole("button", { name: "Delete TTFT under 700 ms" }).click();
    await card.getByRole("button", { name: "Delete SLO" }).click();
    await expect(page.getByText("No SLOs yet")).toBeVisible();
  });
});
