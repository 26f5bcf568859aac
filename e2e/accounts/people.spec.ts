import { expect, test, type Browser, type Page } from "@playwright/test";
import { storageStateOf } from "../accounts";

// An admin takes access away at once and gives it back, resets a password; everyone changes
// their own. Each through the pages a person uses, against the real sign-in.

const anonymous = { cookies: [], origins: [] };

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function newPerson(browser: Browser, label: string) {
  const admin = await browser.newContext({ storageState: storageStateOf("admin") });
  const email = `${label}-${Date.now()}@e2e.example`;
  const password = `${label} first password`;
  const created = await admin.request.post("/api/users", { data: { email, name: label, role: "editor", password } });
  expect(created.status()).toBe(201);
  return { admin, email, password };
}

test.describe("accounts: people", () => {
  test.use({ storageState: anonymous });

  test("an admin deactivates someone: their open page is signed out at once and they cannot sign in; reactivated, they can", async ({
    page,
    browser,
  }) => {
    const { admin, email, password } = await newPerson(browser, "leaver");
    await signIn(page, email, password);
    await expect(page.getByTestId("signed-in-as")).toHaveText(email);

    const users = await admin.newPage();
    await users.goto("/admin/users");
    const row = users.getByTestId(`user-${email}`);
    users.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Deactivate" }).click();
    await expect(row.getByText("deactivated")).toBeVisible();

    await page.reload();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    expect((await (await page.request.get("/api/me")).json()).user).toBeNull();
    await signIn(page, email, password);
    await expect(page.getByRole("status")).toContainText("This account is deactivated");

    await row.getByRole("button", { name: "Reactivate" }).click();
    await expect(row.getByText("deactivated")).toHaveCount(0);
    await signIn(page, email, password);
    await expect(page.getByTestId("signed-in-as")).toHaveText(email);
    // And signs out from the menu (audited too).
    await page.getByTestId("signed-in-as").click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await admin.close();
  });

  test("an admin resets a password and signs someone out everywhere; they change their own password", async ({
    page,
    browser,
  }) => {
    const { admin, email, password } = await newPerson(browser, "forgetful");
    await signIn(page, email, password);
    await expect(page.getByTestId("signed-in-as")).toHaveText(email);

    const users = await admin.newPage();
    await users.goto("/admin/users");
    const row = users.getByTestId(`user-${email}`);
    await row.getByText("Reset password").click();
    await row.getByLabel(`New password for ${email}`).fill("set by the admin today");
    await row.getByRole("button", { name: "Set" }).click();
    await expect(row.getByText("Password set; their sessions ended.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();

    await signIn(page, email, "set by the admin today");
    await expect(page.getByTestId("signed-in-as")).toHaveText(email);
    await page.goto("/settings/password");
    await page.getByLabel("Current password").fill("not the password");
    await page.getByLabel("New password").fill("my very own password");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("This is not your current password")).toBeVisible();
    await page.getByLabel("Current password").fill("set by the admin today");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("status")).toContainText("Password changed.");

    await row.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(row.getByText("Signed out of 1 session.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await signIn(page, email, "my very own password");
    await expect(page.getByTestId("signed-in-as")).toHaveText(email);
    await admin.close();
  });

  test("after signing in, next= only ever leads to a page of this app", async ({ page, baseURL, browser }) => {
    const own = new URL(baseURL!).origin;
    const { admin, email, password } = await newPerson(browser, "redirected");
    await admin.close();
    // A browser drops the tab: "/\t/evil.example/x" would be "//evil.example/x", another site.
    await page.goto("/sign-in?next=/%09/evil.example/x");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByTestId("signed-in-as")).toHaveText(email);
    expect(new URL(page.url()).origin).toBe(own);
    // Already signed in, the same link sends them home, not away.
    await page.goto("/sign-in?next=/%09/evil.example/x");
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
    expect(new URL(page.url()).origin).toBe(own);
    for (const next of ["/%0A/evil.example/x", "//evil.example", "/%5Cevil.example"]) {
      const response = await page.goto(`/sign-in?next=${next}`);
      expect(response!.status(), next).toBeLessThan(500);
      expect(new URL(page.url()).origin, next).toBe(own);
    }
  });

  test("?error= on the sign-in page never shows text from the link", async ({ page }) => {
    await page.goto("/sign-in?error=Your%20account%20is%20locked.%20Call%20%2B1-555-0100");
    await expect(page.getByRole("status")).toHaveText("Single sign-on failed. Try again, or use your password.");
    await expect(page.getByText("555-0100")).toHaveCount(0);
  });
});
