import { expect, test } from "@playwright/test";
import { E2E_USERS } from "../accounts";
import { component, createService } from "../builders";

test.describe("budgets: two leads edit at once, then read the history", () => {
  test("a stale save is refused, shows their change, and re-applies mine on top", async ({ browser, request }) => {
    const slug = await createService(request, {
      stages: [
        { name: "Network", components: [component("Network", 150)] },
        { name: "RAG", components: [component("RAG retrieval", 120)] },
      ],
    });
    const context = await browser.newContext();
    const mine = await context.newPage();
    const theirs = await context.newPage();
    await mine.goto(`/services/${slug}/budget`);
    await theirs.goto(`/services/${slug}/budget`);

    await theirs.getByLabel("Stage 1 component 1 p95 budget in ms").fill("140");
    await theirs.getByRole("button", { name: "Save budget" }).click();
    await expect(theirs.getByText(/Saved version 2/)).toBeVisible();

    await mine.getByLabel("Stage 2 component 1 p95 budget in ms").fill("100");
    await mine.getByRole("button", { name: "Save budget" }).click();
    const conflict = mine.getByRole("alert").filter({ hasText: "Not saved" });
    await expect(conflict).toContainText(`saved by ${E2E_USERS.editor.email} since you opened it`);
    await expect(conflict.getByRole("list", { name: "Their changes" })).toContainText("Network p95: 150 ms → 140 ms");

    await mine.getByRole("button", { name: "Re-apply my edits on top" }).click();
    await expect(mine.getByLabel("Stage 1 component 1 p95 budget in ms")).toHaveValue("140");
    await expect(mine.getByLabel("Stage 2 component 1 p95 budget in ms")).toHaveValue("100");
    await mine.getByRole("button", { name: "Save budget" }).click();
    await expect(mine.getByText(/Saved version 3/)).toBeVisible();

    const saved = await (await request.get(`/api/services/${slug}/budget`)).json();
    expect(
      saved.stages.map((s: { components: { budgetMs: { p95: number } }[] }) => s.components[0]!.budgetMs.p95),
    ).toEqual([140, 100]);
    await context.close();
  });

  test("reads who changed what and restores an old version", async ({ page, request }) => {
    const slug = await createService(request, {
      stages: [{ name: "Network", components: [component("Network", 150)] }],
    });
    await page.goto(`/services/${slug}/budget`);
    await page.getByLabel("Target (ms)").fill("650");
    await page.getByLabel("Change note").fill("Tighter target");
    await page.getByRole("button", { name: "Save budget" }).click();
    await expect(page.getByText(/Saved version 2/)).toBeVisible();

    await page.getByRole("link", { name: "History" }).click();
    const revisions = page.getByRole("list", { name: "Revisions" });
    await expect(revisions.getByRole("listitem").first()).toContainText("Version 2");
    await expect(page.getByRole("list", { name: "Changes in version 2" })).toContainText(
      "TTFT q0.95 < 700 ms → TTFT q0.95 < 650 ms",
    );
    await expect(revisions).toContainText("“Tighter target”");
    await expect(revisions).toContainText(E2E_USERS.editor.email);

    await page.getByRole("button", { name: "Restore…" }).click();
    await page.getByRole("button", { name: "Restore version 1 as a new version" }).click();
    await expect(page.getByText("Restored as version 3.")).toBeVisible();
    await expect(page.getByRole("list", { name: "Changes in version 3" })).toContainText(
      "650 ms → TTFT q0.95 < 700 ms",
    );
  });

  test("the services page shows each target, total and margin; unknown services are a 404 page", async ({ page }) => {
    await page.goto("/");
    const chat = page.getByRole("link", { name: /Chat API/ });
    await expect(chat).toContainText("TTFT p95 < 700 ms");
    await expect(chat).toContainText("660 ms");
    await expect(chat).toContainText("40 ms");
    const response = await page.goto("/services/no-such-service/budget");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("There is no such service or page.")).toBeVisible();
  });
});
