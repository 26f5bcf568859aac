import { expect, test } from "@playwright/test";
import { uniqueSlug } from "../builders";

// CI's way in: a personal token, shown once, used with curl-like requests, then revoked.

test.describe("accounts: API tokens", () => {
  test("an editor creates a token, CI uploads with it, and a revoked token gets 401", async ({ page, playwright }) => {
    await page.goto("/settings/tokens");
    await page.getByLabel("Name").fill("CI uploads");
    await page.getByLabel("write:experiments").check();
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("new-token").textContent())!.trim();
    expect(token).toMatch(/^lb_/);
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("new-token")).toHaveCount(0);
    await expect(page.getByRole("cell", { name: "read, write:experiments" })).toBeVisible();

    // A script without cookies: only the bearer token.
    const ci = await playwright.request.newContext({
      baseURL: test.info().project.use.baseURL,
      storageState: { cookies: [], origins: [] },
      extraHTTPHeaders: { authorization: `Bearer ${token}` },
    });
    const experiments = await (await ci.get("/api/experiments")).json();
    const id = experiments[0].id as string;
    const upload = await ci.post(`/api/experiments/${id}/samples`, {
      headers: { "content-type": "text/csv" },
      data: "variant,ttft_ms\ncontrol,310\ntreatment,290\n",
    });
    expect(upload.status()).toBe(200);
    // The token's scopes stop where they stop.
    const service = await ci.post("/api/services", { data: { slug: uniqueSlug(), name: "Nope", stages: [] } });
    expect(service.status()).toBe(403);

    page.once("dialog", (dialog) => void dialog.accept());
    await page
      .getByRole("row", { name: /CI uploads/ })
      .getByRole("button", { name: "Revoke" })
      .click();
    await expect(page.getByRole("row", { name: /CI uploads/ }).getByText("revoked")).toBeVisible();
    const refused = await ci.get("/api/experiments");
    expect(refused.status()).toBe(401);
    expect((await refused.json()).error.message).toContain("revoked");
    await ci.dispose();
  });
});
