import { expect, test } from "@playwright/test";
import { E2E_USERS, storageStateOf } from "../accounts";
import { createService } from "../builders";

// Each role sees what it may do, and the API refuses the rest (hiding a button is not the check).

test.describe("accounts: what each role may do", () => {
  test("a viewer reads the budget but cannot save it, and is told why", async ({ browser, request }) => {
    const slug = await createService(request);
    const viewer = await browser.newContext({ storageState: storageStateOf("viewer") });
    const page = await viewer.newPage();
    await page.goto(`/services/${slug}/budget`);
    await expect(page.getByTestId("signed-in-as")).toHaveText(E2E_USERS.viewer.email);
    await expect(page.getByText("Editors and admins can save budgets; you are a viewer.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save budget" })).toHaveCount(0);
    // The API says the same, whatever the page shows.
    const put = await page.request.put(`/api/services/${slug}/budget`, {
      data: { version: 1, indicator: "TTFT", targetMs: 650, quantile: 0.95, stages: [] },
    });
    expect(put.status()).toBe(403);
    expect((await put.json()).error.message).toBe("Editors and admins can save budgets; you are a viewer.");
    await viewer.close();
  });

  test("an editor saves a budget; the history names them", async ({ page, request }) => {
    const slug = await createService(request);
    await page.goto(`/services/${slug}/budget`);
    await expect(page.getByTestId("signed-in-as")).toHaveText(E2E_USERS.editor.email);
    await page.getByLabel("Target (ms)").fill("680");
    await page.getByRole("button", { name: "Save budget" }).click();
    await expect(page.getByText("Saved version 2")).toBeVisible();
    await page.goto(`/services/${slug}/history`);
    await expect(page.getByText(E2E_USERS.editor.email).first()).toBeVisible();
    // Deleting a service is for admins.
    expect((await request.delete(`/api/services/${slug}`)).status()).toBe(403);
  });

  test("an admin adds someone, changes their role, and deletes a service", async ({ browser, request }) => {
    const slug = await createService(request);
    const admin = await browser.newContext({ storageState: storageStateOf("admin") });
    const page = await admin.newPage();
    await page.goto("/admin/users");
    const email = `pm-${Date.now()}@e2e.example`;
    await page.getByLabel("Name").fill("E2E PM");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("First password").fill("short");
    await page.getByRole("button", { name: "Add user" }).click();
    await expect(page.getByText("At least 12 characters", { exact: true })).toBeVisible();
    await page.getByLabel("First password").fill("a long enough password");
    await page.getByRole("button", { name: "Add user" }).click();
    const role = page.getByLabel(`Role of ${email}`);
    await expect(role).toHaveValue("viewer");
    await role.selectOption("editor");
    await expect(role).toHaveValue("editor");
    await page.reload();
    await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("editor");

    expect((await page.request.delete(`/api/services/${slug}`)).status()).toBe(204);
    await page.goto(`/services/${slug}/budget`);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await admin.close();
  });

  test("someone not signed in reads dashboards (anonymous viewing is on) and is asked to sign in to change them", async ({
    browser,
  }) => {
    const anonymous = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await anonymous.newPage();
    await page.goto("/services/chat-api/budget");
    await expect(page.getByText("Sign in to save budgets.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
    const post = await page.request.post("/api/services", { data: { slug: "nope", name: "Nope", stages: [] } });
    expect(post.status()).toBe(401);
    await anonymous.close();
  });

  test("a wrong password is refused with a message, the right one signs in", async ({ browser }) => {
    const fresh = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await fresh.newPage();
    await page.goto("/sign-in?next=/experiments");
    await page.getByLabel("Email").fill(E2E_USERS.viewer.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("status")).toHaveText("Invalid email or password");
    await page.getByLabel("Password").fill(E2E_USERS.viewer.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/experiments$/);
    await expect(page.getByTestId("signed-in-as")).toHaveText(E2E_USERS.viewer.email);
    await fresh.close();
  });
});
