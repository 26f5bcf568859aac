import { expect, test, type Page } from "@playwright/test";
import { SSO_PEOPLE } from "../accounts";

// Single sign-on through a real OpenID Connect provider started for the run (test/oidc/provider.ts):
// its login and consent pages, the code flow with PKCE, and a role from the `groups` claim.

async function signInWithSso(page: Page, login: string) {
  await page.goto("/sign-in?next=/tradeoffs");
  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  // The provider's own pages.
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password: the test provider checks none");
  await page.locator('button[type="submit"]').click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test.describe("accounts: single sign-on", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a lead from the provider's latency-leads group arrives as an editor, back where they started", async ({
    page,
  }) => {
    await signInWithSso(page, SSO_PEOPLE.lead.login);
    await expect(page).toHaveURL(/\/tradeoffs$/);
    await expect(page.getByTestId("signed-in-as")).toHaveText(SSO_PEOPLE.lead.email);
    const me = await (await page.request.get("/api/me")).json();
    expect(me.user).toMatchObject({ email: SSO_PEOPLE.lead.email, role: "editor", name: "Sam SSO Lead" });
  });

  test("someone without a mapped group gets the default role", async ({ page }) => {
    await signInWithSso(page, SSO_PEOPLE.viewer.login);
    await expect(page.getByTestId("signed-in-as")).toHaveText(SSO_PEOPLE.viewer.email);
    const me = await (await page.request.get("/api/me")).json();
    expect(me.user.role).toBe("viewer");
  });
});
